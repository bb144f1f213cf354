// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>A round-robin replica selector that records every feedback it is given, with the replica it was given for.</summary>
public sealed class RecordingSelector : IReplicaSelector
{
    private readonly List<(string Replica, ReplicaFeedback Feedback)> _feedback = [];
    private int _next;

    /// <summary>Gets what was recorded so far.</summary>
    public IReadOnlyList<(string Replica, ReplicaFeedback Feedback)> Feedback
    {
        get
        {
            lock (_feedback)
            {
                return [.. _feedback];
            }
        }
    }

    /// <summary>Forgets what was recorded so far.</summary>
    public void Clear()
    {
        lock (_feedback)
        {
            _feedback.Clear();
        }
    }

    /// <inheritdoc />
    public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now) =>
        replicas.IsEmpty ? ReplicaChoice.Fail("No replica.") : ReplicaChoice.Replica(_next++ % replicas.Length);

    /// <inheritdoc />
    public void OnSent(ReplicaState replica, long now)
    {
    }

    /// <inheritdoc />
    public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        lock (_feedback)
        {
            _feedback.Add((replica.Id, feedback));
        }
    }
}
