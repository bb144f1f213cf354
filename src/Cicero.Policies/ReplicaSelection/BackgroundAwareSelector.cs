// SPDX-License-Identifier: Apache-2.0

using Cicero.Measurement;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// Wu's background-aware replica ranking (thesis §4.3.1, eq. 4.1): φ = Ñ + q̄³·(1/ũ) + β·Ω̄, where Ñ (network latency)
/// and 1/ũ (service time) are tail-adjusted values, q̄ (queue size) and Ω̄ (wait in the server's queue) EWMAs; the
/// lowest score wins. A server's reported background activity (GC, compaction) multiplies its score by
/// 1 + penalty × activity and adds penalty × activity × its service time, so busy replicas are avoided even where φ
/// is 0 (a local copy on an idle server).
/// </summary>
/// <remarks>
/// A ranking policy: it never asks for the backlog. Network latency is the response time minus the server's wait and
/// service times. A replica without feedback scores 0 and is tried first. Scores are in milliseconds; the tail values
/// are recomputed at most every <see cref="BackgroundAwareOptions.AdjustmentInterval"/>. Single-threaded by contract.
/// </remarks>
public sealed class BackgroundAwareSelector : IReplicaSelector
{
    private readonly BackgroundAwareOptions _options;
    private readonly long _interval;

    /// <summary>Creates the selector.</summary>
    /// <param name="options">Options; the thesis's defaults when <see langword="null"/>.</param>
    /// <param name="timestampFrequency">Timestamps per second of the clock passed as <c>now</c>.</param>
    public BackgroundAwareSelector(BackgroundAwareOptions? options, long timestampFrequency)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        _options = options ?? new BackgroundAwareOptions();
        _options.Validate();
        _interval = Math.Max(1, (long)(_options.AdjustmentInterval.TotalSeconds * timestampFrequency));
    }

    /// <summary>Creates a factory under the name <see cref="ReplicaSelectorNames.C3Background"/>.</summary>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    /// <returns>The factory.</returns>
    public static ReplicaSelectorFactory CreateFactory(BackgroundAwareOptions? options = null)
    {
        options ??= new BackgroundAwareOptions();
        options.Validate();
        return new DelegateReplicaSelectorFactory(ReplicaSelectorNames.C3Background, frequency => new BackgroundAwareSelector(options, frequency));
    }

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        if (replicas.IsEmpty)
        {
            return ReplicaChoice.Fail("The replica group is empty.");
        }

        var best = -1;
        var bestScore = double.PositiveInfinity;
        for (var i = 0; i < replicas.Length; i++)
        {
            if (replicas[i].IsDown)
            {
                continue;
            }

            var score = Score(replicas[i], now);
            if (best < 0 || score < bestScore)
            {
                best = i;
                bestScore = score;
            }
        }

        return best < 0 ? ReplicaChoice.Fail($"All {replicas.Length} replicas of the group are down.") : ReplicaChoice.Replica(best);
    }

    /// <inheritdoc />
    void IReplicaSelector.OnSent(ReplicaState replica, long now)
    {
    }

    /// <inheritdoc />
    void IReplicaSelector.OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        if (feedback.Failed)
        {
            return;
        }

        var stats = StatsOf(replica, now);
        var serviceMs = Math.Max(0, feedback.ServiceTime.TotalMilliseconds);
        var waitMs = Math.Max(0, feedback.WaitTime.TotalMilliseconds);
        stats.Network.Add(Math.Max(0, feedback.ResponseTime.TotalMilliseconds - serviceMs - waitMs));
        stats.Service.Add(serviceMs);
        stats.QueueSize.Update(Math.Max(0, feedback.QueueSize));
        stats.WaitTime.Update(waitMs);
        stats.Background = Math.Clamp(double.IsFinite(feedback.BackgroundActivity) ? feedback.BackgroundActivity : 0, 0, 1);
    }

    /// <summary>Gets a replica's score φ in milliseconds (0 before any feedback), refreshing its tail values if due.</summary>
    /// <param name="replica">The replica.</param>
    /// <param name="now">The current timestamp.</param>
    /// <returns>The score; lower is better.</returns>
    internal double Score(ReplicaState replica, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        if (replica.SelectorState is not Stats { Network.HasValue: true } stats)
        {
            return 0;
        }

        if (now - stats.LastAdjustment >= _interval)
        {
            stats.Network.Adjust();
            stats.Service.Adjust();
            stats.LastAdjustment = now;
        }

        var queue = stats.QueueSize.Value;
        var score = stats.Network.Value + (queue * queue * queue * stats.Service.Value) + (_options.WaitTimeWeight * stats.WaitTime.Value);

        // The penalty also charges the busy replica's own service time: multiplying φ alone left a busy replica that
        // scores 0 (the coordinator's own copy, no network, an idle queue) at 0, so it kept every local read.
        var penalty = _options.BackgroundPenalty * stats.Background;
        return (score * (1 + penalty)) + (penalty * stats.Service.Value);
    }

    private Stats StatsOf(ReplicaState replica, long now)
    {
        if (replica.SelectorState is Stats stats)
        {
            return stats;
        }

        stats = new Stats(_options, now);
        replica.SelectorState = stats;
        return stats;
    }

    private sealed class Stats(BackgroundAwareOptions options, long now)
    {
        public TailValueTracker Network { get; } = new(options.SampleWindow, options.TailFactor);

        public TailValueTracker Service { get; } = new(options.SampleWindow, options.TailFactor);

        // Mutable structs updated in place, so fields rather than properties.
        public Ewma QueueSize = new(options.EwmaWeight);
        public Ewma WaitTime = new(options.EwmaWeight);

        public double Background { get; set; }

        public long LastAdjustment { get; set; } = now;
    }
}
