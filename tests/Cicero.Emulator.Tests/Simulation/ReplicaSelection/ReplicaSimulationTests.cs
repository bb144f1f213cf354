// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.ReplicaSelection;

namespace Cicero.Emulator.Tests.Simulation.ReplicaSelection;

/// <summary>
/// The simulation's mechanics on small runs. The paper's claims at full request count (C3 against least outstanding, round
/// robin and the oracle) are checked by <c>ReproductionClaimsTests</c> through the C3 study.
/// </summary>
public sealed class ReplicaSimulationTests
{
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
        foreach (var selector in SimulationSelectorNames.All)
        {
            var run = new ReplicaSimulation(Small(), selector, 3).Run();

            Assert.True(run.Conserved, $"{run.Selector}: {run}");
            Assert.Equal(Small().Requests, run.Generated);
            Assert.Equal(0, run.Failed);
            Assert.True(run.Measured > run.Generated / 2, run.ToString());
            Assert.True(run.ReadRepairCopies > 0, run.ToString());
        }
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
