// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>
/// A selector's decision for one request, shaped like gRPC's <c>PickResult</c>: send to a replica, hold the request
/// in the group's backlog until a replica is within its rate (C3's backpressure), or fail with a reason.
/// </summary>
public readonly struct ReplicaChoice : IEquatable<ReplicaChoice>
{
    private ReplicaChoice(ReplicaChoiceKind kind, int index, string? reason)
    {
        Kind = kind;
        Index = index;
        Reason = reason;
    }

    /// <summary>Gets the kind of decision.</summary>
    public ReplicaChoiceKind Kind { get; }

    /// <summary>Gets the chosen replica's index in the span given to the selector; −1 unless <see cref="Kind"/> is <see cref="ReplicaChoiceKind.Replica"/>.</summary>
    public int Index { get; }

    /// <summary>Gets why the request failed, for <see cref="ReplicaChoiceKind.Fail"/>.</summary>
    public string? Reason { get; }

    /// <summary>Gets the decision to wait in the backlog.</summary>
    public static ReplicaChoice Backlog => new(ReplicaChoiceKind.Backlog, -1, null);

    /// <summary>Compares two choices.</summary>
    public static bool operator ==(ReplicaChoice left, ReplicaChoice right) => left.Equals(right);

    /// <summary>Compares two choices.</summary>
    public static bool operator !=(ReplicaChoice left, ReplicaChoice right) => !left.Equals(right);

    /// <summary>Chooses the replica at <paramref name="index"/>.</summary>
    /// <param name="index">The index in the span given to the selector.</param>
    /// <returns>The choice.</returns>
    public static ReplicaChoice Replica(int index)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        return new ReplicaChoice(ReplicaChoiceKind.Replica, index, null);
    }

    /// <summary>Fails the request.</summary>
    /// <param name="reason">Why, for the caller.</param>
    /// <returns>The choice.</returns>
    public static ReplicaChoice Fail(string reason)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(reason);
        return new ReplicaChoice(ReplicaChoiceKind.Fail, -1, reason);
    }

    /// <inheritdoc />
    public bool Equals(ReplicaChoice other) => Kind == other.Kind && Index == other.Index && Reason == other.Reason;

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is ReplicaChoice other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => HashCode.Combine(Kind, Index, Reason);

    /// <inheritdoc />
    public override string ToString() => Kind switch
    {
        ReplicaChoiceKind.Replica => $"Replica({Index})",
        ReplicaChoiceKind.Fail => $"Fail({Reason})",
        _ => "Backlog",
    };
}
