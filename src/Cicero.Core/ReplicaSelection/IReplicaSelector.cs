// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>Chooses the replica of a group that a request goes to, and learns from every response.</summary>
/// <remarks>
/// Pure and synchronous: no I/O, no clock reads (the current timestamp is passed in), single-threaded by contract (the
/// replica-client engine calls it, on one thread or under its host's lock). Per-replica state lives in
/// <see cref="ReplicaState.SelectorState"/>.
/// </remarks>
public interface IReplicaSelector
{
    /// <summary>Chooses a replica for one request.</summary>
    /// <param name="replicas">The group's replicas; may be empty.</param>
    /// <param name="now">The current timestamp.</param>
    /// <returns>A replica index, the backlog, or a failure with a reason (for an empty or all-down group).</returns>
    ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now);

    /// <summary>Reports that a request was sent to <paramref name="replica"/> (after the engine counted it as outstanding).</summary>
    /// <param name="replica">The replica.</param>
    /// <param name="now">The current timestamp.</param>
    void OnSent(ReplicaState replica, long now);

    /// <summary>Reports a response (or failure) from <paramref name="replica"/> (after the engine uncounted it).</summary>
    /// <param name="replica">The replica; feedback for a replica the selector never saw must be handled safely.</param>
    /// <param name="feedback">What the response said.</param>
    /// <param name="now">The current timestamp.</param>
    void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now);
}
