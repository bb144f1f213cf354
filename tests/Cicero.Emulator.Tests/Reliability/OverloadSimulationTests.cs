// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Xunit.Abstractions;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// Issue 8 item 1, the simulated half: an aggressive tenant offers 10× the topology's capacity
/// (<see cref="OverloadScenario"/>: 3,200 requests/s). With rate control the topology keeps completing at least 90% of
/// its capacity, the compliant tenants keep at least 99% of their requests, every request is accounted for, and the
/// simulator's peak live heap is measured against a run without the overload.
/// </summary>
/// <remarks>
/// CI runs 16 s of load (8 s warm-up, the aggressor ramping up at 2 s); <c>CICERO_OVERLOAD_SECONDS=60</c> runs the
/// documented longer run and adds the no-rate-control baseline to the output (docs/reliability.md).
/// </remarks>
[Collection(SerialEmulatorTests.Name)]
public sealed class OverloadSimulationTests(ITestOutputHelper output)
{
    private const double WarmUp = 8;
    // The safe defaults (docs/decisions/0011): the flood is seen after one interval of queue, cut at once to its fair
    // level, and the backlog it built is drained from its share. Before that amendment they kept 54% of capacity here
    // with the compliant tenants at 60%, and this test named the paper preset. It also guards decision 0013's scaled
    // completion estimate, which, uncapped, refused 99% of the compliant tenants' requests here as infeasible.
    private const string RateControl = """[{ "name": "rc", "rateControl": true, "deadlineMs": 1000 }]""";
    // The defaults' overload confidence must hold the flood (excusing the flood's aftermath as noise, before a cut in place
    // kept it from doing so, released the aggressor into a sawtooth: goodput 59%, the compliant tenants at 80%), and so
    // must the plain average it replaced.
    private const string RateControlPlainAverage = """[{ "name": "rc", "rateControl": { "overloadConfidence": 0 }, "deadlineMs": 1000 }]""";
    // The overload hold (an opt-in, docs/decisions/0011, eighth amendment) must not cost the flood's goodput under FIFO,
    // where the aggressor's backlog, not the utilization, makes the compliant tenants' tail.
    private const string RateControlWithHold = """[{ "name": "rc", "rateControl": { "overloadHold": { "utilization": 0.7 } }, "deadlineMs": 1000 }]""";
    private const string Baseline = """[{ "name": "baseline", "rateControl": false, "dropPolicy": "never" }]""";

    [Theory]
    [InlineData(RateControl)]
    [InlineData(RateControlPlainAverage)]
    [InlineData(RateControlWithHold)]
    public async Task RateControl_AggressorAt10xCapacity_GoodputAndCompliantTenantsHold(string configuration)
    {
        var seconds = Environment.GetEnvironmentVariable("CICERO_OVERLOAD_SECONDS") is { } text ? double.Parse(text, CultureInfo.InvariantCulture) : 16;
        var steady = OverloadScenario.Parse(OverloadScenario.CompliantShare, seconds, WarmUp, configuration);
        var overload = OverloadScenario.Parse(10, seconds, WarmUp, configuration);

        var (calm, calmPeak) = await PeakHeap.MeasureAsync(() => Run(steady));
        var (result, peak) = await PeakHeap.MeasureAsync(() => Run(overload));
        Report("no overload (aggressor at 10% of capacity)", calm, calmPeak);
        Report("aggressor at 10x capacity", result, peak);
        if (seconds > 16)
        {
            var (baseline, baselinePeak) = await PeakHeap.MeasureAsync(() => Run(OverloadScenario.Parse(10, seconds, WarmUp, Baseline)));
            Report("aggressor at 10x capacity, no rate control", baseline, baselinePeak);
        }

        // Conservation: the runner throws ConservationException when a request has no outcome; checked here again.
        foreach (var run in new[] { calm, result })
        {
            Assert.All(run.Workflows, w => Assert.Equal(w.Offered, w.Completed + w.Dropped + w.Failed));
        }

        var goodput = result.Workflows.Sum(w => w.Throughput);
        Assert.True(goodput >= 0.9 * OverloadScenario.Capacity, $"goodput {goodput:F0}/s of a capacity of {OverloadScenario.Capacity:F0}/s");
        foreach (var name in OverloadScenario.Compliant)
        {
            var w = result[name];
            Assert.True(w.CompletedFraction >= 0.99, $"{name}: {w.CompletedFraction:P2} of {w.Offered} completed");
        }

        // The excess is turned away where it enters, with a reason, not left to time out inside.
        var aggressor = result[OverloadScenario.Aggressor];
        Assert.True(aggressor.Offered >= 9 * OverloadScenario.Capacity * (seconds - WarmUp), $"aggressor offered {aggressor.Offered}");
        Assert.True(aggressor.DroppedByReason.GetValueOrDefault("rate-limited") >= 0.8 * aggressor.Offered, $"aggressor: {aggressor.Dropped} dropped of {aggressor.Offered}");
        Assert.True(aggressor.TimedOut <= 0.001 * aggressor.Offered, $"aggressor: {aggressor.TimedOut} timed out");

        // Memory is reported, not held to a tight bound: the simulator keeps every completed request's latency.
        Assert.True(peak < 1024L * 1024 * 1024, $"peak live heap {peak / 1048576.0:F0} MiB");
    }

    [Fact]
    public void OverloadHold_UnderAFlood_LeavesTheCapacityItPromisesIdle_AndKeepsTheCompliantTenants()
    {
        // Held at its share of 70% of the back ends beside the compliant tenants' 20%, the aggressor is admitted at about
        // half the capacity: the hold's price, which its documentation states. DRR alone keeps the compliant tenants'
        // tail here too (13 ms at 93% goodput); what the hold adds is shown on generated topologies
        // (RateControlGuaranteeTests), where the queue builds at tiers DRR does not guard.
        const string configuration = """[{ "name": "rc+drr", "rateControl": { "overloadHold": { "utilization": 0.7 } }, "deadlineMs": 1000, "scheduler": "drr" }]""";
        var calm = Run(OverloadScenario.Parse(OverloadScenario.CompliantShare, 16, WarmUp, configuration));
        var flood = Run(OverloadScenario.Parse(10, 16, WarmUp, configuration));
        Report("overload hold at 0.7 under drr, no overload", calm);
        Report("overload hold at 0.7 under drr, aggressor at 10x capacity", flood);

        var goodput = flood.Workflows.Sum(w => w.Throughput) / OverloadScenario.Capacity;
        Assert.InRange(goodput, 0.6, 0.9);
        foreach (var name in OverloadScenario.Compliant)
        {
            Assert.True(flood[name].CompletedFraction >= 0.99, $"{name}: {flood[name].CompletedFraction:P2} completed");
            Assert.True(flood[name].LatencyMs.P99 <= (2 * calm[name].LatencyMs.P99) + 2, $"{name}: p99 {flood[name].LatencyMs.P99:F1} ms against {calm[name].LatencyMs.P99:F1} ms without the flood");
        }

        var aggressor = flood[OverloadScenario.Aggressor];
        Assert.True(aggressor.DroppedByReason.GetValueOrDefault("rate-limited") >= 0.8 * aggressor.Offered, $"aggressor: {aggressor.Dropped} dropped of {aggressor.Offered}");
    }

    [Fact]
    public void EmbeddedOverloadScenario_Simulated_KeepsGoodputAndCompliantTenantsWithNothingTimedOut()
    {
        // The scenario the live check runs (docs/reliability.md), simulated in full (80 s, about half a second per
        // configuration): its tuning of bottleneck fairness must hold the small topology above 90% of capacity.
        var scenario = ScenarioLoader.LoadEmbedded("overload-10x");
        const double capacity = 200;
        foreach (var configuration in scenario.Configurations!)
        {
            var result = new TopologySimulation(scenario, configuration).Run();
            var goodput = result.Workflows.Sum(w => w.Throughput);
            output.WriteLine(FormattableString.Invariant($"{configuration.Name}: goodput {goodput:F1}/s = {goodput / capacity:P1}"));
            Assert.All(result.Workflows, w => Assert.Equal(w.Offered, w.Completed + w.Dropped + w.Failed));
            Assert.True(goodput >= 0.9 * capacity, $"{configuration.Name}: goodput {goodput:F1}/s of {capacity}/s");
            Assert.All(result.Workflows, w => Assert.True(w.TimedOut == 0, $"{configuration.Name}/{w.Workflow}: {w.TimedOut} timed out"));
            if (configuration.Scheduler == "drr")
            {
                Assert.All(["c1", "c2"], name => Assert.True(result[name].CompletedFraction >= 0.99, $"{configuration.Name}/{name}: {result[name].CompletedFraction:P2}"));
            }
        }
    }

    private static TopologyRunResult Run(ScenarioSpec scenario) => new TopologySimulation(scenario, scenario.Configurations![0]).Run();

    private void Report(string title, TopologyRunResult result, long? peakBytes = null)
    {
        var goodput = result.Workflows.Sum(w => w.Throughput);
        var heap = peakBytes is { } bytes ? FormattableString.Invariant($", peak live heap {bytes / 1048576.0:F1} MiB") : "";
        output.WriteLine(FormattableString.Invariant(
            $"{title}: {result.Events:N0} events, {result.Requests:N0} requests, goodput {goodput:F0}/s = {goodput / OverloadScenario.Capacity:P1} of capacity{heap}"));
        foreach (var w in result.Workflows)
        {
            var reasons = string.Join(", ", w.DroppedByReason.Concat(w.FailedByReason).Select(kv => FormattableString.Invariant($"{kv.Key} {kv.Value:N0}")));
            output.WriteLine(FormattableString.Invariant(
                $"  {w.Workflow,-9} offered {w.Offered,9:N0} completed {w.Completed,9:N0} ({w.CompletedFraction:P2}) dropped {w.Dropped,9:N0} failed {w.Failed,6:N0} lost {w.Offered - w.Completed - w.Dropped - w.Failed} p99 {w.LatencyMs.P99:F0} ms {reasons}"));
        }
    }
}
