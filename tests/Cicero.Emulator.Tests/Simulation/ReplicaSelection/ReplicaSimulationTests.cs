// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.ReplicaSelection;

namespace Cicero.Emulator.Tests.Simulation.ReplicaSelection;

public sealed class ReplicaSimulationTests(ReplicaSimulationFixture fixture) : IClassFixture<ReplicaSimulationFixture>
{
    private const string C3 = SimulationSelectorNames.C3;
    // The reference figures come from the authors' simulator, whose least-outstanding breaks ties to the first replica.
    private const string Lor = SimulationSelectorNames.LeastOutstandingFirstTie;

    [Fact]
    public void Run_SameSeed_IdenticalResults()
    {
        foreach (var selector in SimulationSelectorNames.All)
        {
            var first = new ReplicaSimulation(Small(), selector, 7).Run();
            var second = new ReplicaSimulation(Small(), selector, 7).Run();
            var other = new ReplicaSimulation(Small(), selector, 8).Run();

            Assert.Equal(first with { QueueSamples = Array.Empty<int>() }, second with { QueueSamples = Array.Empty<int>() });
            Assert.Equal(first.QueueSamples, second.QueueSamples);
            Assert.NotEqual(first.P99, other.P99);
        }
    }

    [Fact]
    public void Run_EveryRequest_CompletesOrFails()
    {
        foreach (var run in fixture.All)
        {
            Assert.True(run.Conserved, $"{run.Selector} seed {run.Seed}: {run}");
            Assert.Equal(ReplicaSimulationFixture.Requests, run.Generated);
            Assert.Equal(0, run.Failed);
            Assert.True(run.Measured > run.Generated / 2, run.ToString());
            Assert.True(run.ReadRepairCopies > 0, run.ToString());
        }
    }

    [Fact]
    public void Run_FluctuationEvery500ms_C3BeatsBaselinesAtTheTail()
    {
        const double T = 500;
        var c3 = fixture.Mean(T, C3, r => r.P99);
        var lor = fixture.Mean(T, Lor, r => r.P99);
        var roundRobin = fixture.Mean(T, SimulationSelectorNames.RoundRobin, r => r.P99);
        var oracle = fixture.Mean(T, SimulationSelectorNames.Oracle, r => r.P99);

        Assert.True(c3 < lor, $"C3 p99 {c3:F1} ms, least outstanding {lor:F1} ms");
        Assert.True(c3 <= 0.5 * roundRobin, $"C3 p99 {c3:F1} ms, round robin {roundRobin:F1} ms");
        Assert.True(c3 <= 2 * oracle, $"C3 p99 {c3:F1} ms, oracle {oracle:F1} ms");
    }

    [Fact]
    public void Run_FluctuationEvery500ms_C3MeanAndMedianAtMost70PercentOfLeastOutstanding()
    {
        const double T = 500;
        var c3Mean = fixture.Mean(T, C3, r => r.Mean);
        var lorMean = fixture.Mean(T, Lor, r => r.Mean);
        var c3Median = fixture.Mean(T, C3, r => r.P50);
        var lorMedian = fixture.Mean(T, Lor, r => r.P50);

        Assert.True(c3Mean <= 0.7 * lorMean, $"C3 mean {c3Mean:F2} ms, least outstanding {lorMean:F2} ms");
        Assert.True(c3Median <= 0.7 * lorMedian, $"C3 median {c3Median:F2} ms, least outstanding {lorMedian:F2} ms");
    }

    [Fact]
    public void Run_FluctuationEvery10ms_C3AndLeastOutstandingWithin25PercentAtP99()
    {
        var c3 = fixture.Mean(10, C3, r => r.P99);
        var lor = fixture.Mean(10, Lor, r => r.P99);

        // "Within 25% of each other", in the stricter reading: the larger is at most 1.25 x the smaller (the reference
        // figures give 48 / 39 = 1.23). At the paper's full size of 600,000 requests ours is about 1.21.
        Assert.True(Math.Max(c3, lor) <= 1.25 * Math.Min(c3, lor), $"C3 p99 {c3:F1} ms, least outstanding {lor:F1} ms");
    }

    [Fact]
    public void ArrivalRate_PaperDefaults_SeventyPercentOfAverageCapacity()
    {
        var options = new ReplicaSimulationOptions();

        // 50 servers x 4 slots x (1/4 + 3/4)/2 per ms = 100 per ms; 70% of it.
        Assert.Equal(70, options.ArrivalRatePerMs, 9);
        Assert.Equal(4.0 / 3, options.FastServiceTime.TotalMilliseconds, 3);
    }

    [Fact]
    public void Constructor_UnknownSelector_Throws()
    {
        var error = Assert.Throws<ArgumentException>(() => new ReplicaSimulation(Small(), "nope", 1));
        Assert.Contains(SimulationSelectorNames.C3, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_SortedSample_InterpolatesLikeNumpy()
    {
        double[] sample = [1, 2, 3, 4];

        Assert.Equal(2.5, LatencyPercentiles.Of(sample, 0.5));
        Assert.Equal(3.97, LatencyPercentiles.Of(sample, 0.99), 9);
        Assert.Equal(4, LatencyPercentiles.Of(sample, 1));
        Assert.True(double.IsNaN(LatencyPercentiles.Of([], 0.5)));
    }

    private static ReplicaSimulationOptions Small() => new()
    {
        Requests = 20_000,
        Servers = 10,
        Clients = 30,
        Generators = 40,
        WarmUp = TimeSpan.FromMilliseconds(200),
        FluctuationInterval = TimeSpan.FromMilliseconds(100),
    };
}
