// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Scenarios.Generation;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>The static limits the guarantee compares rate control with, on small hand-computed topologies.</summary>
public sealed class StaticLimitsTests
{
    [Fact]
    public void MaxMinShares_WaterFills()
    {
        // Capacity 100 over demands 10, 30, 200: 10 and 30 are met, the 60 left goes to the third.
        Assert.Equal([10, 30, 60], StaticLimits.MaxMinShares([10, 30, 200], 100));

        // Over demands 50, 60, 70: none fits under an even 33.3.
        Assert.Equal([100.0 / 3, 100.0 / 3, 100.0 / 3], StaticLimits.MaxMinShares([50, 60, 70], 100));

        // Demand 20 fits under 33.3; the rest split 80 as 40 and 40.
        Assert.Equal([40, 20, 40], StaticLimits.MaxMinShares([90, 20, 70], 100));
    }

    // A hand-made topology: bottleneck capacity 100 requests/s of unit cost; t1 offers 20/s at cost 2 (40 units), the
    // aggressor 300/s at cost 0.5 (150 units). At fill 0.8 the aggressor gets 80 − 40 = 40 units, 80/s; at 1.0, 120/s.
    [Theory]
    [InlineData(0.8, 80)]
    [InlineData(0.9, 100)]
    [InlineData(1.0, 120)]
    public void RatesAt_ChainWithAnAggressor_HandComputed(double fill, double aggressorRate)
    {
        var generated = HandMade(("t1", 20, 2), ("agg", 300, 0.5));

        var limits = StaticLimits.RatesAt(generated, fill);

        Assert.Equal(20, limits["t1"], 9);
        Assert.Equal(aggressorRate, limits["agg"], 9);
        var limited = StaticLimits.Apply(generated.Scenario, limits, fill);
        Assert.Equal([20, aggressorRate], limited.Workloads!.Select(w => w.RatePerSecond));
        Assert.Equal(300, generated.Scenario.Workloads![1].RatePerSecond);
    }

    // Two tenants both above an even split: each is held to half the fill, in its own cost.
    [Fact]
    public void RatesAt_TwoHeavyTenants_EvenSplitInUnitsOfCapacity()
    {
        var generated = HandMade(("t1", 100, 1), ("t2", 100, 2));

        var limits = StaticLimits.RatesAt(generated, 1.0);

        Assert.Equal(50, limits["t1"], 9);
        Assert.Equal(25, limits["t2"], 9);
        Assert.False(StaticLimits.IsHealthy(generated));
        Assert.True(StaticLimits.IsHealthy(HandMade(("t1", 30, 1), ("t2", 35, 2))));
    }

    // A compliant tenant above its share is held too: t1's 85 and the aggressor's 300 split 80 evenly.
    [Fact]
    public void RatesAt_CompliantAboveItsShare_HeldToIt()
    {
        var generated = HandMade(("t1", 85, 1), ("agg", 300, 1));

        var limits = StaticLimits.RatesAt(generated, 0.8);

        Assert.Equal(40, limits["t1"], 9);
        Assert.Equal(40, limits["agg"], 9);
    }

    // A generated graph's services, with the given tenants' workloads (their own costs are in Costs, not in the stages).
    private static GeneratedScenario HandMade(params (string Workflow, double Rate, double Cost)[] tenants)
    {
        var scenario = ScenarioGenerator.Generate(1, GeneratedLoadKinds.Steady).Scenario;
        var stages = scenario.Workflows![0].Stages;
        scenario.Workflows = [.. tenants.Select(t => new WorkflowSpec { Name = t.Workflow, Stages = stages })];
        scenario.Workloads = [.. tenants.Select(t => new WorkloadSpec { Workflow = t.Workflow, RatePerSecond = t.Rate })];
        return HandMade(scenario, tenants);
    }

    private static GeneratedScenario HandMade(ScenarioSpec scenario, (string Workflow, double Rate, double Cost)[] tenants) => new()
    {
        Scenario = scenario,
        LoadKind = GeneratedLoadKinds.Aggressor,
        BottleneckService = "leaf",
        CapacityPerSecond = 100,
        Compliant = [tenants[0].Workflow],
        Costs = tenants.ToDictionary(t => t.Workflow, t => t.Cost),
    };
}
