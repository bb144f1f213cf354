// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// Cassandra's dynamic snitch: keep the natural order (by index; the first replica that is up) unless its latency score
/// is worse than the best score by more than the badness threshold, and then take the best. Scores are recomputed
/// from each replica's average response time at most once per <see cref="DynamicSnitchOptions.UpdateInterval"/>, and
/// every sample and score is forgotten once per <see cref="DynamicSnitchOptions.ResetInterval"/>.
/// </summary>
/// <remarks>
/// <para>
/// A score is the latency normalised by the largest latency; since only ratios of scores are compared, the selector
/// compares the latencies captured at the last update directly. As in Cassandra, a replica without a score is left out
/// of the badness check but ranks best (score 0) once the check has failed, and the outstanding count plays no part.
/// Where Cassandra compares the whole natural order with the sorted order position by position, only the first
/// position matters for one choice, so only that one is compared. A failed call can raise a latency but never lower it.
/// </para>
/// <para>
/// The <c>now</c> timestamps drive both intervals: the first call starts them, and an update or reset happens on the
/// first call at or past its interval. Updates are lazy per replica (an epoch counter), so each is O(1).
/// O(n) per choice; no allocation once each replica has been seen. Single-threaded by contract: the replica-group
/// engine calls it under its lock.
/// </para>
/// </remarks>
public sealed class DynamicSnitchSelector : IReplicaSelector
{
    private readonly long _updateTicks;
    private readonly long _resetTicks;
    private readonly double _badness;
    private readonly double _sampleWeight;
    private bool _started;
    private long _lastUpdate;
    private long _lastReset;
    private long _epoch;
    private long _resetEpoch;

    /// <summary>Creates the selector.</summary>
    /// <param name="options">Intervals, badness threshold and sample weight.</param>
    /// <param name="timestampFrequency">Timestamps per second of the clock passed as <c>now</c>.</param>
    /// <exception cref="ArgumentOutOfRangeException">The options are invalid, or <paramref name="timestampFrequency"/> is not positive.</exception>
    public DynamicSnitchSelector(DynamicSnitchOptions options, long timestampFrequency)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        _updateTicks = ReplicaSelectorShared.ToTimestampTicks(options.UpdateInterval, timestampFrequency);
        _resetTicks = ReplicaSelectorShared.ToTimestampTicks(options.ResetInterval, timestampFrequency);
        _badness = options.BadnessThreshold;
        _sampleWeight = options.SampleWeight;
    }

    /// <summary>Creates a factory under the name <see cref="ReplicaSelectorNames.DynamicSnitch"/>.</summary>
    /// <param name="options">The options; defaults when <see langword="null"/>.</param>
    /// <returns>The factory.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The options are invalid.</exception>
    public static ReplicaSelectorFactory CreateFactory(DynamicSnitchOptions? options = null)
    {
        options ??= new DynamicSnitchOptions();
        options.Validate();
        var copy = new DynamicSnitchOptions
        {
            UpdateInterval = options.UpdateInterval,
            ResetInterval = options.ResetInterval,
            BadnessThreshold = options.BadnessThreshold,
            SampleWeight = options.SampleWeight,
        };
        return new DelegateReplicaSelectorFactory(ReplicaSelectorNames.DynamicSnitch, frequency => new DynamicSnitchSelector(copy, frequency));
    }

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        if (replicas.IsEmpty)
        {
            return ReplicaSelectorShared.EmptyGroup;
        }

        Advance(now);
        var natural = -1;
        var bestScored = double.PositiveInfinity;
        var best = -1;
        var bestLatency = double.PositiveInfinity;
        for (var i = 0; i < replicas.Length; i++)
        {
            if (replicas[i].IsDown)
            {
                continue;
            }

            var state = StateOf(replicas[i]);
            if (natural < 0)
            {
                natural = i;
            }

            var latency = state.HasScore ? state.ScoredLatency : 0;
            if (latency < bestLatency)
            {
                best = i;
                bestLatency = latency;
            }

            if (state.HasScore && latency < bestScored)
            {
                bestScored = latency;
            }
        }

        if (natural < 0)
        {
            return ReplicaSelectorShared.AllDown;
        }

        var first = (SnitchState)replicas[natural].SelectorState!;
        var tooBad = first.HasScore && first.ScoredLatency > bestScored * (1 + _badness);
        return ReplicaChoice.Replica(tooBad ? best : natural);
    }

    /// <inheritdoc />
    void IReplicaSelector.OnSent(ReplicaState replica, long now) => ArgumentNullException.ThrowIfNull(replica);

    /// <inheritdoc />
    void IReplicaSelector.OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        var sample = feedback.ResponseTime.TotalSeconds;
        if (!(sample >= 0))
        {
            return;
        }

        Advance(now);
        var state = StateOf(replica);
        if (!state.HasLatency)
        {
            state.Latency = sample;
            state.HasLatency = true;
        }
        else if (!feedback.Failed || sample > state.Latency)
        {
            state.Latency += _sampleWeight * (sample - state.Latency);
        }
    }

    private void Advance(long now)
    {
        if (!_started)
        {
            _started = true;
            _lastUpdate = now;
            _lastReset = now;
        }
        else if (now - _lastReset >= _resetTicks)
        {
            _resetEpoch++;
            _epoch++;
            _lastReset = now;
            _lastUpdate = now;
        }
        else if (now - _lastUpdate >= _updateTicks)
        {
            _epoch++;
            _lastUpdate = now;
        }
    }

    /// <summary>Gets the replica's state, brought up to the current update and reset epochs.</summary>
    private SnitchState StateOf(ReplicaState replica)
    {
        if (replica.SelectorState is not SnitchState state)
        {
            state = new SnitchState { Epoch = _epoch, ResetEpoch = _resetEpoch };
            replica.SelectorState = state;
            return state;
        }

        if (state.ResetEpoch != _resetEpoch)
        {
            state.HasLatency = false;
            state.Latency = 0;
            state.HasScore = false;
            state.ScoredLatency = 0;
            state.ResetEpoch = _resetEpoch;
            state.Epoch = _epoch;
        }
        else if (state.Epoch != _epoch)
        {
            // Every sample folded so far came before the current epoch began, so this is the latency the update saw.
            state.ScoredLatency = state.Latency;
            state.HasScore = state.HasLatency;
            state.Epoch = _epoch;
        }

        return state;
    }

    private sealed class SnitchState
    {
        public double Latency { get; set; }

        public bool HasLatency { get; set; }

        public double ScoredLatency { get; set; }

        public bool HasScore { get; set; }

        public long Epoch { get; set; }

        public long ResetEpoch { get; set; }
    }
}
