// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>
/// Least outstanding requests with ties going to the group's first replica, as the C3 authors' simulator breaks them
/// (Cicero's <c>least-outstanding</c> rotates ties). Kept to explain the gap between the two in docs/reproduction.md.
/// </summary>
public sealed class FirstTieLeastOutstandingSelector : IReplicaSelector
{
    /// <inheritdoc />
    public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        var best = -1;
        for (var i = 0; i < replicas.Length; i++)
        {
            if (!replicas[i].IsDown && (best < 0 || replicas[i].Outstanding < replicas[best].Outstanding))
            {
                best = i;
            }
        }

        return best >= 0 ? ReplicaChoice.Replica(best) : ReplicaChoice.Fail("Every replica of the group is down or the group is empty.");
    }

    /// <inheritdoc />
    public void OnSent(ReplicaState replica, long now)
    {
    }

    /// <inheritdoc />
    public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
    }
}
