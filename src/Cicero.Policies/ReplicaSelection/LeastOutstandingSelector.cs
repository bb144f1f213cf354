// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// Least outstanding requests: the replica that is up with the fewest of this client's requests in flight
/// (<see cref="ReplicaState.Outstanding"/>). Ties go to the first tied replica at or after the one following the
/// previous pick, so equally loaded replicas take turns, deterministically.
/// </summary>
/// <remarks>
/// O(n) per choice; no allocation. Single-threaded by contract: the replica-group engine calls it under its lock and
/// keeps the outstanding counts. It keeps no per-replica state, so feedback is ignored.
/// </remarks>
public sealed class LeastOutstandingSelector : IReplicaSelector
{
    private int _next;

    /// <summary>Creates a factory under the name <see cref="ReplicaSelectorNames.LeastOutstanding"/>.</summary>
    /// <returns>The factory.</returns>
    public static ReplicaSelectorFactory CreateFactory() =>
        new DelegateReplicaSelectorFactory(ReplicaSelectorNames.LeastOutstanding, static _ => new LeastOutstandingSelector());

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now) =>
        ReplicaSelectorShared.ChooseCheapestRotating(replicas, ref _next, default(OutstandingCost));

    /// <inheritdoc />
    void IReplicaSelector.OnSent(ReplicaState replica, long now) => ArgumentNullException.ThrowIfNull(replica);

    /// <inheritdoc />
    void IReplicaSelector.OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => ArgumentNullException.ThrowIfNull(replica);

    private readonly struct OutstandingCost : IReplicaCost
    {
        public double Of(ReplicaState replica) => replica.Outstanding;
    }
}
