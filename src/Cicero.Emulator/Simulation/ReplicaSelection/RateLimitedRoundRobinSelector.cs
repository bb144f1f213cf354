// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>
/// Round robin behind C3's per-replica cubic rate limiters (the C3 paper's §6 "RR" baseline): the replicas are ranked
/// in rotation starting one after the previous pick, and the request goes to the first that is within its rate; when
/// none is, it waits in the group's backlog. Isolates what rate limiting alone contributes.
/// </summary>
/// <remarks>Single-threaded by contract; each replica's <see cref="CubicRateController"/> lives in <see cref="ReplicaState.SelectorState"/>.</remarks>
public sealed class RateLimitedRoundRobinSelector : IReplicaSelector, IBackpressureAware
{
    private readonly CubicRateOptions _options;
    private readonly long _frequency;
    private int _next;

    /// <summary>Creates the selector.</summary>
    /// <param name="options">The rate options; C3's defaults when <see langword="null"/>.</param>
    /// <param name="timestampFrequency">Timestamps per second of the clock passed as <c>now</c>.</param>
    public RateLimitedRoundRobinSelector(CubicRateOptions? options, long timestampFrequency)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        _options = options ?? new C3Options().Rate;
        _frequency = timestampFrequency;
    }

    /// <inheritdoc />
    public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        var count = replicas.Length;
        if (count == 0)
        {
            return ReplicaChoice.Fail("The replica group is empty.");
        }

        var start = _next % count;
        _next = start + 1 < count ? start + 1 : 0;
        var alive = 0;
        for (var k = 0; k < count; k++)
        {
            var index = start + k < count ? start + k : start + k - count;
            if (replicas[index].IsDown)
            {
                continue;
            }

            alive++;
            if (RateOf(replicas[index], now).HasToken(now))
            {
                return ReplicaChoice.Replica(index);
            }
        }

        return alive == 0 ? ReplicaChoice.Fail("Every replica in the group is down.") : ReplicaChoice.Backlog;
    }

    /// <inheritdoc />
    public void OnSent(ReplicaState replica, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        RateOf(replica, now).TryConsume(now);
    }

    /// <inheritdoc />
    public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        if (!feedback.Failed)
        {
            RateOf(replica, now).OnResponse(now);
        }
    }

    /// <inheritdoc />
    public long? TimeUntilAvailable(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        long? best = null;
        foreach (var replica in replicas)
        {
            if (!replica.IsDown)
            {
                var wait = RateOf(replica, now).TimeUntilToken(now);
                best = best is null ? wait : Math.Min(best.Value, wait);
            }
        }

        return best;
    }

    private CubicRateController RateOf(ReplicaState replica, long now)
    {
        if (replica.SelectorState is CubicRateController rate)
        {
            return rate;
        }

        rate = new CubicRateController(_options, _frequency, now);
        replica.SelectorState = rate;
        return rate;
    }
}
