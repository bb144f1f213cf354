// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

/// <summary>
/// The safe defaults of bottleneck fairness (docs/decisions/0011), each against Algorithm 4 as written on the same
/// inputs: one resource of 2 permits, two workflows.
/// </summary>
public class BottleneckFairnessSafeDefaultsTests
{
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void BusyButHealthy_QueueBunchesAboveCapacity_SafeLeavesUnlimitedAsWrittenCuts()
    {
        // 80% utilised: offered demand 1.6 of 2 permits, but held + waiting averages 4.4 (an M/M/2 queue at ρ = 0.8).
        var inputs = Inputs(current: double.PositiveInfinity, arrival: 100, loads: [2.6, 1.8], demands: [0.9, 0.7], standing: 1);

        Assert.Equal([double.PositiveInfinity, double.PositiveInfinity], Run(new BottleneckFairnessOptions(), inputs));
        Assert.All(Run(BottleneckFairnessOptions.AsWritten(), inputs), rate => Assert.True(rate < 100));
    }

    [Fact]
    public void Overloaded_OnlyOnceTheQueueStands_ThenCutToALevelThatDoesNotCompound()
    {
        // Offered demand 4 on 2 permits, equal costs: each workflow's fair share is 1 of its 2 permits, so its level is
        // arrival 100/s × (1 ÷ 2) = 50/s.
        var fresh = Inputs(current: double.PositiveInfinity, arrival: 100, loads: [6, 6], demands: [2, 2], standing: 2);
        Assert.Equal([double.PositiveInfinity, double.PositiveInfinity], Run(new BottleneckFairnessOptions(), fresh));

        var standing = Inputs(current: double.PositiveInfinity, arrival: 100, loads: [6, 6], demands: [2, 2], standing: 3);
        Assert.Equal([50.0, 50.0], Run(new BottleneckFairnessOptions(), standing));

        // The load lags the cut: the next interval still measures the old arrivals. The level is the same, so σ holds;
        // Algorithm 4 as written multiplies again (50 → 25) and keeps halving while the measurement lags.
        var lagging = Inputs(current: 50, arrival: 100, loads: [6, 6], demands: [2, 2], standing: 4);
        Assert.Equal([50.0, 50.0], Run(new BottleneckFairnessOptions(), lagging));
        Assert.All(Run(BottleneckFairnessOptions.AsWritten(), lagging), rate => Assert.True(rate <= 25));
    }

    [Fact]
    public void NewWorkflow_AtAHealthySystem_IsAdmittedUnlimited()
    {
        // The first interval of a burst that offers about 2,000/s: the smoothed rates have only reached 27/s.
        var inputs = Inputs(current: double.PositiveInfinity, arrival: 27, loads: [0.5, 0], demands: [0.5, 0], standing: 0);

        Assert.Equal(double.PositiveInfinity, Run(new BottleneckFairnessOptions(), inputs)[0]);

        // As written, a never-limited leaf workflow starts at max(initial rate, admitted rate) + β(1 + φ/n): 27 + 17.5,
        // and the burst is refused while σ ramps after the lagging average (the 27 → 81 → 247 → 613/s).
        Assert.True(Run(BottleneckFairnessOptions.AsWritten(), inputs)[0] < 100);
    }

    [Fact]
    public void LimitedWorkflow_RampsByAFraction_ThenIsReleasedOnceTheLimitNoLongerBinds()
    {
        var ramping = Inputs(current: 100, arrival: 100, loads: [0.5, 0.5], demands: [0.5, 0.5], standing: 0);
        Assert.Equal(120, Run(new BottleneckFairnessOptions(), ramping)[0], 6);

        // σ at twice the arrival rate with capacity spare: the limit protects nothing any more.
        var slack = Inputs(current: 200, arrival: 100, loads: [0.5, 0.5], demands: [0.5, 0.5], standing: 0);
        Assert.Equal(double.PositiveInfinity, Run(new BottleneckFairnessOptions(), slack)[0]);
    }

    private static double[] Run(BottleneckFairnessOptions options, LocalRateInputs inputs)
    {
        var rates = new double[inputs.Workflows.Length];
        new BottleneckFairnessPolicy(options).ComputeLocalRates(inputs, rates, 0);
        return rates;
    }

    private LocalRateInputs Inputs(double current, double arrival, double[] loads, double[] demands, int standing)
    {
        WorkflowRateInputs Workflow(string name) =>
            new(_registry.Resolve(name), current, double.PositiveInfinity, arrival, double.IsPositiveInfinity(current) ? arrival : Math.Min(current, arrival));

        return LocalRateInputs.Create(
            0.1,
            [Workflow("a"), Workflow("b")],
            [new ResourceRateInputs("disk", 2, loads.Sum()) { TotalDemand = demands.Sum(), StandingQueueIntervals = standing }],
            loads,
            demands);
    }
}
