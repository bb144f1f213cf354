// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>The replica a <see cref="ReplicaGroup"/> chose for a request, or why it could not choose one.</summary>
public readonly struct ReplicaPick
{
    internal ReplicaPick(ReplicaState? replica, bool isLocal, string? failure)
    {
        Replica = replica;
        IsLocal = isLocal;
        Failure = failure;
    }

    /// <summary>Gets the chosen replica, or <see langword="null"/> when the pick failed.</summary>
    public ReplicaState? Replica { get; }

    /// <summary>Gets a value indicating whether the request should be served in-process (the local replica).</summary>
    public bool IsLocal { get; }

    /// <summary>Gets why no replica was chosen.</summary>
    public string? Failure { get; }

    /// <summary>Gets a value indicating whether a replica was chosen.</summary>
    public bool Succeeded => Replica is not null;
}
