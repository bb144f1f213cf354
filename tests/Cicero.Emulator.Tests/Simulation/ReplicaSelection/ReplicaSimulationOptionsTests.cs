// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.ReplicaSelection;
using Cicero.Policies.ReplicaSelection;

namespace Cicero.Emulator.Tests.Simulation.ReplicaSelection;

/// <summary>The study's options on small runs (10 servers): paired streams, demand skew, the surge, rate variants, validation.</summary>
public sealed class ReplicaSimulationOptionsTests
{
    [Fact]
    public void Run_TwiceTheClients_SameArrivals()
    {
        // One stream each for speed flips, arrivals and service times: doubling the clients leaves every arrival draw
        // (times, groups, read-repair coins) as it was; a selector's choices only move the service-time draws.
        var few = new ReplicaSimulation(Small(clients: 30), SimulationSelectorNames.Oracle, 1).Run();
        var many = new ReplicaSimulation(Small(clients: 60), SimulationSelectorNames.Oracle, 1).Run();
        var otherSeed = new ReplicaSimulation(Small(clients: 30), SimulationSelectorNames.Oracle, 2).Run();

        Assert.Equal(few.ReadRepairCopies, many.ReadRepairCopies);
        Assert.NotEqual(few.ReadRepairCopies, otherSeed.ReadRepairCopies);
    }

    [Fact]
    public void Run_DemandSkew_MeasuresTheLowRateClientsApart()
    {
        var uniform = new ReplicaSimulation(Small(clients: 30), SimulationSelectorNames.C3, 3).Run();
        var skewedOptions = Small(clients: 30);
        skewedOptions.HighDemandFraction = 0.2;
        var skewed = new ReplicaSimulation(skewedOptions, SimulationSelectorNames.C3, 3).Run();

        Assert.True(double.IsNaN(uniform.LowRateP99));
        Assert.True(skewed.LowRateP99 > 0 && skewed.LowRateP99 <= skewed.P999 * 2, skewed.ToString());
        Assert.True(skewed.Conserved);
    }

    [Fact]
    public void Run_Surge_RaisesTheSampledQueue()
    {
        var options = new ReplicaSimulationOptions
        {
            Servers = 10,
            Clients = 10,
            Generators = 10,
            RangeFactor = 1,
            Utilization = 0.15,
            SurgeAt = TimeSpan.FromSeconds(2),
            SurgeUtilization = 0.6,
            Requests = 30_000,
            WarmUp = TimeSpan.FromMilliseconds(500),
            QueueSamplePeriod = TimeSpan.FromMilliseconds(10),
        };

        var run = new ReplicaSimulation(options, SimulationSelectorNames.C3, 1).Run();

        var before = run.QueueSamples.Take(200).Average();
        var after = run.QueueSamples.Skip(210).Take(150).Average();
        Assert.True(after > 2 * before, $"server 0's queue: {before:0.00} before the surge, {after:0.00} after");
        Assert.False(double.IsNaN(run.LowRateP99));
        Assert.True(run.Conserved);
    }

    [Theory]
    [InlineData(CubicRateVariant.Published, true)]
    [InlineData(CubicRateVariant.BindingLimit, false)]
    public void Run_RateLimitedRoundRobin_OnlyAlgorithm2AsWrittenBinds(CubicRateVariant variant, bool binds)
    {
        // Per client and server the demand is a fraction of a request per window: the production variant never cuts a
        // limit that has not bound, so it never binds; Algorithm 2 as written cuts it to the demand, and bursts bind.
        var options = Small(clients: 30);
        options.RateVariant = variant;

        var rr = new ReplicaSimulation(options, SimulationSelectorNames.RoundRobin, 1).Run();
        var lor = new ReplicaSimulation(options, SimulationSelectorNames.LeastOutstanding, 1).Run();

        Assert.Equal(binds, rr.RateLimited > 0);
        Assert.Equal(0, lor.RateLimited);
        Assert.False(double.IsNaN(rr.MeanFeedbackAgeMs));
    }

    [Fact]
    public void Validate_BadStudyOptions_SayWhich()
    {
        var skew = Small(clients: 30);
        skew.HighDemandFraction = 0.01;
        var surge = Small(clients: 30);
        surge.SurgeAt = TimeSpan.FromSeconds(1);
        surge.SurgeUtilization = 0.5;
        var exponent = Small(clients: 30);
        exponent.ScoreExponent = 0;

        Assert.Equal(nameof(ReplicaSimulationOptions.HighDemandFraction), Assert.Throws<ArgumentOutOfRangeException>(skew.Validate).ParamName);
        Assert.Equal(nameof(ReplicaSimulationOptions.SurgeAt), Assert.Throws<ArgumentOutOfRangeException>(surge.Validate).ParamName);
        Assert.Equal(nameof(ReplicaSimulationOptions.ScoreExponent), Assert.Throws<ArgumentOutOfRangeException>(exponent.Validate).ParamName);
    }

    private static ReplicaSimulationOptions Small(int clients) => new()
    {
        Requests = 20_000,
        Servers = 10,
        Clients = clients,
        Generators = 40,
        WarmUp = TimeSpan.FromMilliseconds(200),
        FluctuationInterval = TimeSpan.FromMilliseconds(100),
    };
}
