// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Measurement;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.StorageTopology.Tests;

/// <summary>The verdict over seeds: a winner only beyond the spread, a tie otherwise, and no crash on empty results.</summary>
public sealed class NoiseVerdictTests
{
    [Fact]
    public void ClearlyFasterOnEverySeed_Wins()
    {
        var verdict = NoiseVerdict.Of(
        [
            ("baseline", [Run("baseline", ("W", 1, 200)), Run("baseline", ("W", 1, 230)), Run("baseline", ("W", 1, 210))]),
            ("rc+drr", [Run("rc+drr", ("W", 1, 120)), Run("rc+drr", ("W", 1, 140)), Run("rc+drr", ("W", 1, 130))]),
        ]);

        Assert.Equal("rc+drr", verdict.Winner);
        Assert.Equal("winner: rc+drr", verdict.LastLine);
        Assert.Contains(verdict.Sentences(), s => s.Contains("W: rc+drr wins", StringComparison.Ordinal) && s.Contains("120", StringComparison.Ordinal));
    }

    [Fact]
    public void OverlappingSpreads_Tie()
    {
        // rc's mean p99 is lower, but one baseline seed is faster than one rc seed: that difference is noise.
        var verdict = NoiseVerdict.Of(
        [
            ("baseline", [Run("baseline", ("W", 1, 100)), Run("baseline", ("W", 1, 180))]),
            ("rc", [Run("rc", ("W", 1, 80)), Run("rc", ("W", 1, 120))]),
        ]);

        Assert.Null(verdict.Winner);
        Assert.Equal("winner: none (tie within noise)", verdict.LastLine);
    }

    [Fact]
    public void HigherGoodputBeyondSpread_WinsOverLowerLatency()
    {
        var verdict = NoiseVerdict.Of(
        [
            ("baseline", [Run("baseline", ("W", 0.5, 50)), Run("baseline", ("W", 0.55, 60))]),
            ("rc", [Run("rc", ("W", 0.95, 300)), Run("rc", ("W", 0.97, 320))]),
        ]);

        Assert.Equal("rc", verdict.Winner);
    }

    [Fact]
    public void WinnersDisagreeAcrossWorkflows_NoOverallWinner()
    {
        var verdict = NoiseVerdict.Of(
        [
            ("a", [Run("a", ("X", 1, 10), ("Y", 1, 100)), Run("a", ("X", 1, 11), ("Y", 1, 101))]),
            ("b", [Run("b", ("X", 1, 100), ("Y", 1, 10)), Run("b", ("X", 1, 101), ("Y", 1, 11))]),
        ]);

        Assert.Equal(["a", "b"], verdict.Workflows.Select(w => w.Winner!));
        Assert.Null(verdict.Winner);
    }

    [Fact]
    public void NothingCompletedAnywhere_IsATieNotACrash()
    {
        var verdict = NoiseVerdict.Of(
        [
            ("baseline", [Run("baseline", ("W", 0, double.NaN))]),
            ("rc", [Run("rc", ("W", 0, double.NaN))]),
        ]);

        Assert.Null(verdict.Winner);
        Assert.Contains(verdict.Sentences(), s => s.Contains("no p99 (nothing completed)", StringComparison.Ordinal));
    }

    [Fact]
    public void HostLimited_NamesNoWinner()
    {
        var verdict = NoiseVerdict.Of(
            [("baseline", [Run("baseline", ("W", 0.4, 900))]), ("rc", [Run("rc", ("W", 1, 50))])],
            HostMonitor.Judge(cpu: 0.97, medianLateMs: 35, medianQueuedPerCore: 1));

        Assert.Null(verdict.Winner);
        Assert.Contains(verdict.Sentences(), s => s.Contains("host itself was the bottleneck", StringComparison.Ordinal) && s.Contains("97%", StringComparison.Ordinal));
        Assert.Null(HostMonitor.Judge(cpu: 0.3, medianLateMs: 1, medianQueuedPerCore: 0));
    }

    [Fact]
    public void HostNotLimited_KeepsTheWinner()
    {
        var verdict = NoiseVerdict.Of(
            [("baseline", [Run("baseline", ("W", 0.4, 900))]), ("rc", [Run("rc", ("W", 1, 50))])],
            HostMonitor.Judge(cpu: 0.6, medianLateMs: 5, medianQueuedPerCore: 1));

        Assert.Equal("rc", verdict.Winner);
        Assert.DoesNotContain(verdict.Sentences(), s => s.Contains("bottleneck", StringComparison.Ordinal));
    }

    [Fact]
    public void HostCpu_NicedWorkBesideTheRun_IsNotBusyUnlessTheRunIsNicedToo()
    {
        // Five seconds of a 2-core host: 1 tick user, 678 nice, 82 system, 234 idle (a niced build beside a live run).
        var start = HostCpu.Parse("cpu  2108060 207595 203620 4010885 1852 0 2029 915 0 0", countNiced: false)!.Value;
        var end = HostCpu.Parse("cpu  2108061 208273 203702 4011119 1852 0 2030 915 0 0", countNiced: false)!.Value;
        var nicedStart = HostCpu.Parse("cpu  2108060 207595 203620 4010885 1852 0 2029 915 0 0", countNiced: true)!.Value;
        var nicedEnd = HostCpu.Parse("cpu  2108061 208273 203702 4011119 1852 0 2030 915 0 0", countNiced: true)!.Value;

        Assert.InRange(end.BusySince(start), 0.08, 0.09);
        Assert.InRange(nicedEnd.BusySince(nicedStart), 0.76, 0.77);
        Assert.Null(HostCpu.Parse("cpu  1 2", countNiced: false));
    }

    private static TopologyRunResult Run(string configuration, params (string Workflow, double Goodput, double P99)[] workflows) => new()
    {
        Scenario = "synthetic",
        Configuration = configuration,
        Workflows = [.. workflows.Select(static w => new WorkflowRunResult
        {
            Workflow = w.Workflow,
            Offered = 1000,
            Completed = (long)(1000 * w.Goodput),
            CompletedFraction = w.Goodput,
            DroppedByReason = new Dictionary<string, long>(),
            FailedByReason = new Dictionary<string, long>(),
            LatencyMs = new DistributionSummary(double.IsNaN(w.P99) ? 0 : 1000, w.P99 / 2, w.P99 / 2, w.P99 * 0.9, w.P99, w.P99, w.P99),
        })],
        Resources = [],
        TimeSeries = [],
        Rates = [],
    };
}
