// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

/// <summary>
/// <see cref="CubicRateVariant.DelayGuarded"/>, C3's rate control as the library runs it: a greedy client and one
/// replica in virtual time (a closed loop of calls against a FIFO replica with fixed service times), so that what the
/// rate limit does to throughput and to the replica's queue is measured rather than assumed.
/// </summary>
public class DelayGuardedRateTests
{
    private const long Frequency = TimeSpan.TicksPerSecond;

    [Fact]
    public void GreedyClient_HealthyReplica_IsNotHeldBack()
    {
        // 8 calls in flight, each served in 1 ms by a replica with room for all of them: 8,000 calls/s wanted, and the
        // paper's initial rate (10 per 20 ms) allows 500.
        var run = Run(CubicRateVariant.DelayGuarded, concurrency: 8, replicaSlots: 8, serviceMs: 1, seconds: 2);

        Assert.True(run.SecondSecondCalls >= 0.95 * 8_000, $"{run.SecondSecondCalls} calls in the second second");
        Assert.False(run.EverCut, "a replica that keeps up never had its limit cut");
    }

    [Fact]
    public void GreedyClient_HealthyReplica_BindingLimitHoldsItNearTheInitialRate()
    {
        // The rule DelayGuarded replaced, on the same client: the receive rate cannot exceed what the limit lets
        // through, so the limit never grows past the paper's start. This is what throttled grpc-dotnet clients.
        var run = Run(CubicRateVariant.BindingLimit, concurrency: 8, replicaSlots: 8, serviceMs: 1, seconds: 2);

        Assert.True(run.SecondSecondCalls < 0.25 * 8_000, $"{run.SecondSecondCalls} calls in the second second");
    }

    [Fact]
    public void GreedyClient_OverloadedReplica_LimitBoundsTheQueueWithoutStarvingIt()
    {
        // One slot at 0.5 ms a call: 2,000 calls/s of capacity, and 64 calls kept in flight. Without a limit the replica
        // would queue 63 calls (a 32 ms response time); the limit must keep most of them at the client and still keep
        // the replica busy.
        var run = Run(CubicRateVariant.DelayGuarded, concurrency: 64, replicaSlots: 1, serviceMs: 0.5, seconds: 4);

        Assert.True(run.EverCut, "queueing at the replica cuts a binding limit");
        Assert.True(run.SecondHalfCalls >= 0.8 * 2_000 * 2, $"{run.SecondHalfCalls} calls in the last 2 s (capacity 4,000)");
        Assert.True(run.MedianQueueAtReplica <= 16, $"median queue at the replica {run.MedianQueueAtReplica}");
    }

    [Fact]
    public void ReplicaSlowsDownForGood_FastestResponseTimeIsRelearned()
    {
        // The replica's service time steps from 1 ms to 5 ms at 1 s, with room for every call: after the minimum's
        // memory (1 to 2 periods of 1 s here) the slower replica reads as healthy again and the limit opens up.
        var options = new CubicRateOptions { MinResponseTimeWindow = TimeSpan.FromSeconds(1) };
        var run = Run(CubicRateVariant.DelayGuarded, concurrency: 8, replicaSlots: 8, serviceMs: 1, seconds: 6, options, slowDownAt: 1, slowServiceMs: 5);

        // 8 in flight at 5 ms: 1,600 calls/s wanted in the last second.
        Assert.True(run.LastSecondCalls >= 0.9 * 1_600, $"{run.LastSecondCalls} calls in the last second");
    }

    [Fact]
    public void WithoutResponseTimes_BehavesAsBindingLimit()
    {
        var guarded = new CubicRateController(new CubicRateOptions { Variant = CubicRateVariant.DelayGuarded }, Frequency, 0);
        var binding = new CubicRateController(new CubicRateOptions { Variant = CubicRateVariant.BindingLimit }, Frequency, 0);
        foreach (var controller in new[] { guarded, binding })
        {
            for (var t = 0L; t < Ms(200); t += Ms(0.5))
            {
                while (controller.TryConsume(t))
                {
                }

                controller.OnResponse(t);
            }
        }

        Assert.Equal(binding.SendingRate, guarded.SendingRate, 12);
        Assert.Equal(binding.ReceiveRate, guarded.ReceiveRate, 12);
    }

    [Theory]
    [InlineData(0.5, 1, 10)]
    [InlineData(double.NaN, 1, 10)]
    [InlineData(2, -1, 10)]
    [InlineData(2, 1, 0)]
    public void Options_Validated(double factor, double slackMs, double minWindowSeconds)
    {
        var options = new CubicRateOptions
        {
            HealthyResponseFactor = factor,
            HealthyResponseSlack = TimeSpan.FromMilliseconds(slackMs),
            MinResponseTimeWindow = TimeSpan.FromSeconds(minWindowSeconds),
        };

        Assert.Throws<ArgumentOutOfRangeException>(() => new CubicRateController(options, Frequency, 0));
    }

    private static RunResult Run(
        CubicRateVariant variant,
        int concurrency,
        int replicaSlots,
        double serviceMs,
        double seconds,
        CubicRateOptions? options = null,
        double slowDownAt = double.PositiveInfinity,
        double slowServiceMs = 0)
    {
        options ??= new CubicRateOptions();
        options.Variant = variant;
        var controller = new CubicRateController(options, Frequency, 0);
        var step = Ms(0.05);
        var end = (long)(seconds * Frequency);
        var waiting = new Queue<long>();                   // send times of calls queued at the replica
        var inService = new List<(long Sent, long Done)>();
        var inFlight = 0;
        var completions = new List<long>();
        var queueSamples = new List<int>();
        for (var now = 0L; now < end; now += step)
        {
            var service = now >= slowDownAt * Frequency ? Ms(slowServiceMs) : Ms(serviceMs);
            for (var i = inService.Count - 1; i >= 0; i--)
            {
                if (inService[i].Done <= now)
                {
                    controller.OnResponse(now, TimeSpan.FromTicks(now - inService[i].Sent));
                    completions.Add(now);
                    inService.RemoveAt(i);
                    inFlight--;
                }
            }

            while (inService.Count < replicaSlots && waiting.Count > 0)
            {
                inService.Add((waiting.Dequeue(), now + service));
            }

            while (inFlight < concurrency && controller.TryConsume(now))
            {
                inFlight++;
                if (inService.Count < replicaSlots)
                {
                    inService.Add((now, now + service));
                }
                else
                {
                    waiting.Enqueue(now);
                }
            }

            if (now > end / 2)
            {
                queueSamples.Add(waiting.Count + inService.Count);
            }
        }

        queueSamples.Sort();
        return new RunResult(
            SecondSecondCalls: completions.Count(t => t >= Frequency && t < 2 * Frequency),
            SecondHalfCalls: completions.Count(t => t >= end / 2),
            LastSecondCalls: completions.Count(t => t >= end - Frequency),
            MedianQueueAtReplica: queueSamples[queueSamples.Count / 2],
            EverCut: controller.SaturationRate != options.InitialRate || controller.SendingRate < options.InitialRate);
    }

    private static long Ms(double milliseconds) => (long)(milliseconds * Frequency / 1000);

    private readonly record struct RunResult(int SecondSecondCalls, int SecondHalfCalls, int LastSecondCalls, int MedianQueueAtReplica, bool EverCut);
}
