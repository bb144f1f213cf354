// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>Wraps a selector and counts how often it sent a request to the backlog; forwards backpressure timing.</summary>
public sealed class CountingSelector(IReplicaSelector inner) : IReplicaSelector, IBackpressureAware
{
    private int _backlogged;

    /// <summary>Gets how many times the selector answered <see cref="ReplicaChoice.Backlog"/>.</summary>
    public int Backlogged => Volatile.Read(ref _backlogged);

    /// <inheritdoc />
    public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        var choice = inner.Choose(replicas, now);
        if (choice.Kind == ReplicaChoiceKind.Backlog)
        {
            Interlocked.Increment(ref _backlogged);
        }

        return choice;
    }

    /// <inheritdoc />
    public void OnSent(ReplicaState replica, long now) => inner.OnSent(replica, now);

    /// <inheritdoc />
    public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => inner.OnFeedback(replica, feedback, now);

    /// <inheritdoc />
    public long? TimeUntilAvailable(ReadOnlySpan<ReplicaState> replicas, long now) =>
        inner is IBackpressureAware aware ? aware.TimeUntilAvailable(replicas, now) : null;
}
