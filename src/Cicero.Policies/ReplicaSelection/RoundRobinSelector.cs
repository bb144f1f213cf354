// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// Round robin: each request goes to the next replica, by index, after the one picked last, skipping replicas that are
/// down. Knows nothing of load or latency; the baseline that C3 is compared with (C3 paper §5).
/// </summary>
/// <remarks>
/// O(1) per choice while replicas are up, O(n) over a run of down replicas; no allocation. Single-threaded by contract:
/// the replica-group engine calls it under its lock. It keeps no per-replica state, so feedback is ignored.
/// </remarks>
public sealed class RoundRobinSelector : IReplicaSelector
{
    private int _next;

    /// <summary>Creates a factory under the name <see cref="ReplicaSelectorNames.RoundRobin"/>.</summary>
    /// <returns>The factory.</returns>
    public static ReplicaSelectorFactory CreateFactory() =>
        new DelegateReplicaSelectorFactory(ReplicaSelectorNames.RoundRobin, static _ => new RoundRobinSelector());

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        var count = replicas.Length;
        if (count == 0)
        {
            return ReplicaSelectorShared.EmptyGroup;
        }

        // The group may have shrunk since the last choice.
        var start = _next % count;
        for (var k = 0; k < count; k++)
        {
            var index = start + k < count ? start + k : start + k - count;
            if (!replicas[index].IsDown)
            {
                _next = index + 1 < count ? index + 1 : 0;
                return ReplicaChoice.Replica(index);
            }
        }

        return ReplicaSelectorShared.AllDown;
    }

    /// <inheritdoc />
    void IReplicaSelector.OnSent(ReplicaState replica, long now) => ArgumentNullException.ThrowIfNull(replica);

    /// <inheritdoc />
    void IReplicaSelector.OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => ArgumentNullException.ThrowIfNull(replica);
}
