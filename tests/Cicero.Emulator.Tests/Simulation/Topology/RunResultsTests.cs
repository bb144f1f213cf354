// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Live;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Simulation.Topology;

/// <summary>The results pipeline both runners feed: the live collector counts as the simulator does, and conservation holds the books.</summary>
public class RunResultsTests
{
    private static readonly CompiledScenario Compiled = CompiledScenario.Compile(TestScenarios.Tiny());

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public async Task LiveCollector_CountsRandomOutcomes_AsTheSimulatorsCountsDo(int seed)
    {
        // The simulator counts an admission when the entry admits; the live collector infers it from the outcome (all
        // but a drop). Fed the same requests, the two must give the same result, summaries included.
        var random = new Random(seed);
        var direct = new RunMetrics(Compiled.Workflows, histograms: true);
        var live = new LiveMetrics(Compiled.Workflows);
        var requests = random.Next(200, 2000);
        for (var i = 0; i < requests; i++)
        {
            var second = random.Next(10);
            var measured = random.NextDouble() < 0.8;
            var outcome = random.Next(3) switch
            {
                0 => Outcome.Ok,
                1 => Outcome.Dropped(random.Next(2) == 0 ? DropReason.RateLimited : DropReason.DeadlineInfeasible),
                _ => Outcome.Failed(random.Next(2) == 0 ? Outcome.Timeout : Outcome.Unavailable),
            };
            var latencyMs = random.NextDouble() * 500;
            TimeSpan? deadline = random.Next(2) == 0 ? null : TimeSpan.FromMilliseconds(100 + random.Next(400));
            var finished = second + random.Next(2);

            direct.Offered(0, second, measured);
            if (outcome.Kind != OutcomeKind.Dropped)
            {
                direct.Admitted(0, measured);
            }

            direct.Outcome(0, outcome, latencyMs, deadline, finished, measured);
            await live.OfferedAsync(0, second, measured);
            await live.FinishedAsync(0, outcome, latencyMs, deadline, finished, measured);
        }

        await live.CompleteAsync();

        Assert.Equal(Build(direct, window: 8).ToJson(), Build(live.Metrics, window: 8).ToJson());
        var counters = live.Metrics.Workflows[0];
        Assert.Equal(counters.Completed + counters.Failed, counters.Admitted);
        Assert.Equal(requests, counters.AllOffered);
    }

    [Fact]
    public void Build_SummarisesTheMeasuredWindow()
    {
        var metrics = new RunMetrics(Compiled.Workflows);
        for (var i = 0; i < 10; i++)
        {
            metrics.Offered(0, second: 2, measured: true);
            metrics.Admitted(0, measured: true);
            metrics.Outcome(0, i < 8 ? Outcome.Ok : Outcome.Failed(Outcome.Timeout), latencyMs: 10 * (i + 1), deadline: TimeSpan.FromMilliseconds(200), second: 2, measured: true);
        }

        metrics.Offered(0, second: 0, measured: false);
        metrics.Outcome(0, Outcome.Dropped(DropReason.RateLimited), 1, null, 0, measured: false);

        var result = Build(metrics, window: 4);

        var w = result["W"];
        Assert.Equal((10L, 10L, 8L, 0L, 2L, 2L), (w.Offered, w.Admitted, w.Completed, w.Dropped, w.Failed, w.TimedOut));
        Assert.Equal(2, w.Throughput, 9);
        Assert.Equal(2.5, w.OfferedRate, 9);
        Assert.Equal(0.8, w.CompletedFraction, 9);
        Assert.Equal(80, w.LatencyMs.Max, 9);
        Assert.Equal(0.4, w.Lnd!.Max, 9);
        Assert.Equal([10.0, 20, 30, 40, 50, 60, 70, 80], w.LatenciesMs);

        // The series counts the unmeasured warm-up too: second 0 has the drop, second 2 the measured requests.
        Assert.Equal((1L, 0L, 1L, 0L), (result.TimeSeries[0].Offered, result.TimeSeries[0].Completed, result.TimeSeries[0].Dropped, result.TimeSeries[0].Failed));
        Assert.Equal(45, result.TimeSeries[2].MeanLatencyMs!.Value, 9);
    }

    [Fact]
    public void Build_RequestWithoutOutcome_ThrowsNamingTheWorkflow()
    {
        var metrics = new RunMetrics(Compiled.Workflows);
        metrics.Offered(0, 1, measured: true);
        metrics.Offered(0, 1, measured: true);
        metrics.Outcome(0, Outcome.Ok, 5, null, 1, measured: true);

        var error = Assert.Throws<ConservationException>(() => Build(metrics, window: 1));

        Assert.Equal("W", error.Workflow);
        Assert.Equal(1, error.Unaccounted);
    }

    [Fact]
    public void Build_RequestStillInFlight_ThrowsNamingTheRun()
    {
        var metrics = new RunMetrics(Compiled.Workflows);

        var error = Assert.Throws<ConservationException>(() => Build(metrics, window: 1, unfinished: 3));

        Assert.Contains("3 request(s) still in flight at the end of the live run", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Utilizations_AreTheMeanAndPeakOverEachServicesInstances()
    {
        var rows = RunResults.Utilizations(Compiled.Services, (service, instance, r) => service.Name == "be" && r == 1 ? 0.2 * (instance + 1) : 0);

        var disk = Assert.Single(rows, row => row.Service == "be" && row.Resource == "disk");
        Assert.Equal(0.4, disk.Mean, 9);
        Assert.Equal(0.6, disk.Max, 9);
        Assert.Equal(Compiled.Services.Sum(s => s.Resources.Length), rows.Count);
    }

    private static TopologyRunResult Build(RunMetrics metrics, double window, long unfinished = 0) =>
        RunResults.Build(metrics, new RunResultInputs(
            "tiny", "rc", 7, DurationSeconds: 10, WarmUpSeconds: 2, EndSeconds: 11, Events: 0, Requests: 0, window, unfinished, "live run", [], [], Interrupted: false));
}
