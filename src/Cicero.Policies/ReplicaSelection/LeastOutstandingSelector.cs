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
    public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        var count = replicas.Length;
        if (count == 0)
        {
            return ReplicaSelectorShared.EmptyGroup;
        }

        var start = _next % count;
        var best = -1;
        var fewest = int.MaxValue;
        for (var k = 0; k < count; k++)
        {
            var index = start + k < count ? start + k : start + k - count;
            var replica = replicas[index];
            if (!replica.IsDown && (best < 0 || replica.Outstanding < fewest))
            {
                best = index;
                fewest = replica.Outstanding;
            }
        }

        if (best < 0)
        {
            return ReplicaSelectorShared.AllDown;
        }

        _next = best + 1 < count ? best + 1 : 0;
        return ReplicaChoice.Replica(best);
    }

    /// <inheritdoc />
    public void OnSent(ReplicaState replica, long now) => ArgumentNullException.ThrowIfNull(replica);

    /// <inheritdoc />
    public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => ArgumentNullException.ThrowIfNull(replica);
}
