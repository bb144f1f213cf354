// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// Counts, for one run, the replies its replica selectors see and how many came from a replica in a background period
/// (the flag servers piggyback): the share of reads a selector sent to a busy replica, which is what Wu's ranking is
/// meant to lower. A diagnostic of the reproduction; wraps a selector without changing its choices.
/// </summary>
internal sealed class BackgroundReadCounter
{
    private long _replies;
    private long _busy;

    /// <summary>Gets the share of successful replies that came from a replica in a background period.</summary>
    public double BusyShare => _replies == 0 ? 0 : (double)_busy / _replies;

    /// <summary>Gets a factory under <paramref name="name"/> whose selectors are <paramref name="inner"/>'s, counted here.</summary>
    public ReplicaSelectorFactory Wrap(string name, ReplicaSelectorFactory inner) =>
        new DelegateReplicaSelectorFactory(name, frequency => new Counted(inner.Create(frequency), this));

    private sealed class Counted(IReplicaSelector inner, BackgroundReadCounter counter) : IReplicaSelector, IBackpressureAware
    {
        public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now) => inner.Choose(replicas, now);

        public void OnSent(ReplicaState replica, long now) => inner.OnSent(replica, now);

        public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
        {
            if (!feedback.Failed)
            {
                counter._replies++;
                if (feedback.BackgroundActivity > 0)
                {
                    counter._busy++;
                }
            }

            inner.OnFeedback(replica, feedback, now);
        }

        public long? TimeUntilAvailable(ReadOnlySpan<ReplicaState> replicas, long now) =>
            inner is IBackpressureAware aware ? aware.TimeUntilAvailable(replicas, now) : null;
    }
}
