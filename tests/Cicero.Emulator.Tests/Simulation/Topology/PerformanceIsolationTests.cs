// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Topology;

/// <summary>Dissertation 5.3.1 at reduced duration: the qualitative result of Figure 5.5.</summary>
public sealed class PerformanceIsolationTests(PerformanceIsolationFixture fixture) : IClassFixture<PerformanceIsolationFixture>
{
    private static readonly string[] Protected = ["A", "B", "C", "D", "E"];

    [Fact]
    public void Baseline_AggressiveTenant_DrivesEveryOtherTenantIntoCollapse()
    {
        foreach (var workflow in Protected)
        {
            // Fine before F arrives; 30 s after, queues hold more than the 10 s timeout and little gets through. E
            // never touches the disks and degrades more slowly, through PS threads held by requests waiting on them.
            Assert.True(fixture.CompletedFraction("baseline", workflow, 6, 10) > 0.9, workflow);
            var late = fixture.CompletedFraction("baseline", workflow, 40, 50);
            var bound = workflow == "E" ? 0.6 : 0.25;
            Assert.True(late < bound, $"{workflow}: {late:P0} completed in the last ten seconds of the baseline");
        }

        Assert.All(Protected, w => Assert.True(fixture.Results["baseline"][w].TimedOut > 0, w));
    }

    [Theory]
    [InlineData("rc")]
    [InlineData("rc+drr")]
    public void RateControl_AggressiveTenant_OthersKeepAtLeast90PercentOfTheirOfferedThroughput(string configuration)
    {
        var result = fixture.Results[configuration];
        foreach (var workflow in Protected)
        {
            var w = result[workflow];
            Assert.True(w.Completed >= 0.9 * w.Offered, $"{configuration} {workflow}: completed {w.Completed} of {w.Offered}");
        }

        // F is throttled where it enters, with a reason, rather than left to time out.
        var f = result["F"];
        Assert.True(f.DroppedByReason.GetValueOrDefault("rate-limited") > 0.2 * f.Offered, $"F dropped {f.Dropped} of {f.Offered}");
        Assert.True(f.TimedOut < 0.01 * f.Offered, $"F timed out {f.TimedOut} of {f.Offered}");
    }

    [Fact]
    public void FairQueuing_OnTopOfRateControl_CutsTheTailOfTheSteadyTenants()
    {
        foreach (var workflow in new[] { "A", "B", "C", "D" })
        {
            var rc = fixture.Results["rc"][workflow].LatencyMs.P99;
            var drr = fixture.Results["rc+drr"][workflow].LatencyMs.P99;
            Assert.True(drr < 0.5 * rc, $"{workflow}: p99 {drr:F0} ms with DRR, {rc:F0} ms without");
        }
    }

    [Fact]
    public void FairQueuing_OnTopOfRateControl_BurstyTenantStopsTimingOut()
    {
        // G fans out to every BS, so under FIFO it waits behind the standing queue of F at the BSs that hold more of F's
        // one-partition table than rate control's median aggregation (q = 0.5) protects; DRR serves it its share there.
        var rc = fixture.Results["rc"]["G"];
        var drr = fixture.Results["rc+drr"]["G"];

        Assert.True(rc.TimedOut >= 0.2 * rc.Offered, $"rc: G timed out {rc.TimedOut} of {rc.Offered}");
        Assert.True(drr.TimedOut < rc.TimedOut, $"G timed out {drr.TimedOut} times with DRR, {rc.TimedOut} without");
        Assert.Equal(0, drr.TimedOut);
    }

    [Fact]
    public void RateControl_SigmaOfTheAggressor_IsFiniteAtEveryTierItUses()
    {
        var rates = fixture.Results["rc"].Rates.Where(r => r.Workflow == "F" && r.Second > PerformanceIsolationFixture.AggressorStart + 2).ToList();

        Assert.NotEmpty(rates);
        Assert.All(rates.Where(r => r.Service is "fe" or "ps" or "bs"), r => Assert.NotNull(r.TotalRate));
    }
}
