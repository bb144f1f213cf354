// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.Emulator.Tests.Simulation.Topology;

public sealed class IdleGapTests
{
    private static readonly long Second = TimeSpan.TicksPerSecond;
    private static readonly ConfigurationSpec Rc = new() { Name = "rc" };

    [Fact]
    public void Next_BusyOrShortGap_OnePeriod_LongGap_WholePeriodsToSettleBeforeTheArrival()
    {
        var period = Second / 10;
        var now = (7 * Second) + 3;

        Assert.Equal(now + period, IdleGap.Next(now, period, nextArrival: null));
        Assert.Equal(now + period, IdleGap.Next(now, period, now + (2 * IdleGap.Settle)));

        var arrival = now + (500_000 * Second);
        var next = IdleGap.Next(now, period, arrival);
        Assert.Equal(0, (next - now) % period); // the task keeps its phase
        Assert.InRange(arrival - next, IdleGap.Settle, IdleGap.Settle + period);
    }

    [Fact]
    public void LongIdleSeconds_LeavesOutOnlyStretchesLongerThanTwiceSettle()
    {
        var longest = (int)(2 * IdleGap.Settle / Second);
        var workflow = new List<SecondBin>();
        Bin(workflow, 0).Offered = 1;
        Bin(workflow, longest + 1).Completed = 1; // idle 1..longest: exactly the limit, kept
        Bin(workflow, (2 * longest) + 3).Failed = 1; // idle longest+2 .. 2*longest+2: one second longer, left out

        var skip = IdleGap.LongIdleSeconds([workflow]);

        Assert.Equal((2 * longest) + 4, skip.Length);
        Assert.DoesNotContain(true, skip[..(longest + 2)]);
        Assert.All(skip[(longest + 2)..((2 * longest) + 3)], Assert.True);
        Assert.False(skip[^1]);
    }

    [Fact]
    public void Replay_UnderRateControl_CostFollowsTheRequestsNotTheGapBeforeTheLastOne()
    {
        var oneDay = Run(gapSeconds: 86_400);
        var fiveDays = Run(gapSeconds: 432_000);

        foreach (var run in new[] { oneDay, fiveDays })
        {
            Assert.All(run.Workflows, w => Assert.Equal(w.Offered, w.Completed));
            Assert.True(run.EndSeconds >= 86_400);
        }

        // Stepping the gap would run ~10 rate rounds per simulated second per instance: millions of events a day.
        Assert.InRange(fiveDays.Events, oneDay.Events - 1_000, oneDay.Events + 1_000);
        Assert.InRange(fiveDays.Rates.Count, 1, oneDay.Rates.Count + 100);
        Assert.InRange(fiveDays.TimeSeries.Count, 1, oneDay.TimeSeries.Count + 10);
        Assert.True(fiveDays.Events < 2_000_000, $"{fiveDays.Events} events");
    }

    private static SecondBin Bin(List<SecondBin> workflow, int second)
    {
        while (workflow.Count <= second)
        {
            workflow.Add(new SecondBin());
        }

        return workflow[second];
    }

    private static TopologyRunResult Run(double gapSeconds)
    {
        TraceRequest[] trace =
        [
            new(0, "t", "get", 0, 4096, 1),
            new(5, "t", "get", 0, 4096, 1),
            new(gapSeconds * 1000, "t", "get", 0, 4096, 1),
        ];
        return SimulatedReplay.Run(TraceReplayPlanner.Create(trace), Rc);
    }
}
