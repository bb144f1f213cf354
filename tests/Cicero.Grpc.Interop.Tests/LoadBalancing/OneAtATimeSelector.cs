// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>
/// Lets each replica have one request outstanding and sends the rest to the backlog: a selector whose only way out of
/// the backlog is a response (it gives no time at which a replica frees up).
/// </summary>
public sealed class OneAtATimeSelector : IReplicaSelector
{
    /// <inheritdoc />
    public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        // The engine counted the pick as outstanding before asking again, so a replica with none is free.
        for (var i = 0; i < replicas.Length; i++)
        {
            if (!replicas[i].IsDown && replicas[i].Outstanding == 0)
            {
                return ReplicaChoice.Replica(i);
            }
        }

        return replicas.IsEmpty ? ReplicaChoice.Fail("No replica.") : ReplicaChoice.Backlog;
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
