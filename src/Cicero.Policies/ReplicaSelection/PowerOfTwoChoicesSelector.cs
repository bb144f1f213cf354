// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// Power of two choices with peak-EWMA latency, as in Finagle's <c>P2CPeakEwma</c> and Linkerd: sample two distinct
/// replicas that are up at random and take the one with the lower cost, peak-EWMA latency × (outstanding + 1).
/// </summary>
/// <remarks>
/// <para>
/// The peak EWMA is hyper-sensitive to peaks: a response time above the current estimate replaces it at once; one at
/// or below it is blended in with weight 1 − w, and the estimate decays towards 0 between samples by w = exp(−Δt/τ),
/// where Δt is the time since the last sample. A replica never measured has latency 0, so it is tried; as in Finagle,
/// while such a replica already has a request outstanding its cost is a large penalty, so a new replica gets one
/// probe rather than a flood. A failed call can raise the estimate but never lower it, so fast failures do not attract
/// traffic.
/// </para>
/// <para>
/// Unlike Finagle, reading a cost does not store the decay: a sample is compared with the estimate decayed to the
/// sample's time, so a replica's estimate does not depend on how often it happened to be sampled.
/// </para>
/// <para>
/// O(1) per choice while every replica is up, O(n) otherwise; no allocation once each replica has been measured.
/// Single-threaded by contract: the replica-group engine calls it under its lock.
/// </para>
/// </remarks>
public sealed class PowerOfTwoChoicesSelector : IReplicaSelector
{
    /// <summary>The cost, in seconds, of an unmeasured replica that already has a request outstanding (Finagle uses 2^47 ns).</summary>
    internal const double Penalty = 1e9;

    private readonly Random _random;
    private readonly double _decayTicks;

    /// <summary>Creates the selector.</summary>
    /// <param name="options">The random source and decay time.</param>
    /// <param name="timestampFrequency">Timestamps per second of the clock passed as <c>now</c>.</param>
    /// <exception cref="ArgumentOutOfRangeException">The options are invalid, or <paramref name="timestampFrequency"/> is not positive.</exception>
    public PowerOfTwoChoicesSelector(PowerOfTwoChoicesOptions options, long timestampFrequency)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        _random = options.Random ?? new Random(0);
        _decayTicks = options.DecayTime.TotalSeconds * timestampFrequency;
    }

    /// <summary>Creates a factory under the name <see cref="ReplicaSelectorNames.PowerOfTwoChoicesPeakEwma"/>.</summary>
    /// <param name="options">The options; defaults when <see langword="null"/>. Each selector gets its own source, seeded from <see cref="PowerOfTwoChoicesOptions.Random"/>.</param>
    /// <returns>The factory.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The options are invalid.</exception>
    public static ReplicaSelectorFactory CreateFactory(PowerOfTwoChoicesOptions? options = null)
    {
        options ??= new PowerOfTwoChoicesOptions();
        options.Validate();
        var decayTime = options.DecayTime;
        var seeds = options.Random ?? new Random(0);
        var gate = new Lock();
        return new DelegateReplicaSelectorFactory(
            ReplicaSelectorNames.PowerOfTwoChoicesPeakEwma,
            frequency => new PowerOfTwoChoicesSelector(
                new PowerOfTwoChoicesOptions { DecayTime = decayTime, Random = ReplicaSelectorShared.NextRandom(seeds, gate) },
                frequency));
    }

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        if (replicas.IsEmpty)
        {
            return ReplicaSelectorShared.EmptyGroup;
        }

        var up = ReplicaSelectorShared.CountUp(replicas);
        if (up <= 1)
        {
            return up == 0 ? ReplicaSelectorShared.AllDown : ReplicaChoice.Replica(ReplicaSelectorShared.NthUp(replicas, 0));
        }

        // Two distinct candidates among the replicas that are up.
        var first = _random.Next(up);
        var second = _random.Next(up - 1);
        if (second >= first)
        {
            second++;
        }

        if (up != replicas.Length)
        {
            first = ReplicaSelectorShared.NthUp(replicas, first);
            second = ReplicaSelectorShared.NthUp(replicas, second);
        }

        return ReplicaChoice.Replica(GetCost(replicas[second], now) < GetCost(replicas[first], now) ? second : first);
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

        if (replica.SelectorState is not PeakEwma ewma)
        {
            ewma = new PeakEwma();
            replica.SelectorState = ewma;
        }

        if (feedback.Failed && sample <= ewma.Estimate(now, _decayTicks))
        {
            return;
        }

        ewma.Observe(sample, now, _decayTicks);
    }

    /// <summary>Gets the replica's peak-EWMA latency in seconds, decayed to <paramref name="now"/>; 0 if never measured.</summary>
    internal double GetLatency(ReplicaState replica, long now) =>
        replica.SelectorState is PeakEwma ewma ? ewma.Estimate(now, _decayTicks) : 0;

    /// <summary>Gets the cost the selector compares: latency × (outstanding + 1), or the penalty for a busy unmeasured replica.</summary>
    internal double GetCost(ReplicaState replica, long now)
    {
        var latency = GetLatency(replica, now);
        var outstanding = Math.Max(replica.Outstanding, 0);
        return latency == 0 && outstanding > 0 ? Penalty + outstanding : latency * (outstanding + 1);
    }

    private sealed class PeakEwma
    {
        private double _value;
        private long _stamp;
        private bool _stamped;

        public double Estimate(long now, double decayTicks) =>
            _value == 0 ? 0 : _value * Math.Exp(-Math.Max(now - _stamp, 0) / decayTicks);

        public void Observe(double sample, long now, double decayTicks)
        {
            var weight = Math.Exp(-Math.Max(now - _stamp, 0) / decayTicks);
            var current = _value * weight;
            _value = sample > current ? sample : current + (sample * (1 - weight));
            // Timestamps that arrive out of order never move the stamp back.
            _stamp = _stamped ? Math.Max(_stamp, now) : now;
            _stamped = true;
        }
    }
}
