// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>
/// A client's view of one replica: its id, the requests outstanding to it, and a slot for the selector's own
/// per-replica state (EWMAs, rate limiter). It outlives picker and group rebuilds, so learned state is kept.
/// </summary>
/// <remarks>Mutated only by the replica-client engine (<see cref="ReplicaClientEngine{TRequest}"/>) and its selector, on its host's thread or under its host's lock.</remarks>
public sealed class ReplicaState
{
    /// <summary>Creates the state of a replica.</summary>
    /// <param name="id">The replica's address or id.</param>
    public ReplicaState(string id)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(id);
        Id = id;
    }

    /// <summary>Gets the replica's address or id.</summary>
    public string Id { get; }

    /// <summary>Gets or sets the number of this client's requests to the replica without a response yet (os in C3).</summary>
    public int Outstanding { get; set; }

    /// <summary>Gets or sets a value indicating whether the replica is known to be down; selectors skip it.</summary>
    public bool IsDown { get; set; }

    /// <summary>Gets or sets the selector's per-replica state; owned by the selector that set it.</summary>
    public object? SelectorState { get; set; }

    /// <inheritdoc />
    public override string ToString() => Id;
}
