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

    [Fact]
    public void Flood_IsCutAtOnceToItsLevel_AfterOneIntervalOfQueue()
    {
        // Offered demand 10 on 2 permits: past twice the target, one interval of standing queue is enough, and the cut
        // is not halved per interval: fair share 1 permit each of 5 offered, 100/s × 1 ÷ 5 = 20/s at once.
        var flood = Inputs(current: double.PositiveInfinity, arrival: 100, loads: [40, 40], demands: [5, 5], standing: 1);
        Assert.All(Run(new BottleneckFairnessOptions(), flood), rate => Assert.Equal(20.0, rate, 9));

        // Just over the capacity (demand 3 on 2) one interval of queue is bunching, not evidence.
        var busy = Inputs(current: double.PositiveInfinity, arrival: 100, loads: [5, 5], demands: [1.5, 1.5], standing: 1);
        Assert.Equal([double.PositiveInfinity, double.PositiveInfinity], Run(new BottleneckFairnessOptions(), busy));
    }

    [Fact]
    public void CongestionWindow_ScalesWithTheServiceTime()
    {
        // 2 permits held for 200 ms each: 10 service times per permit are 1 s, 10 intervals, not 3.
        var early = Inputs(current: double.PositiveInfinity, arrival: 100, loads: [4, 4], demands: [1.2, 1.2], standing: 9, serviceTime: 0.2);
        Assert.Equal([double.PositiveInfinity, double.PositiveInfinity], Run(new BottleneckFairnessOptions(), early));

        var late = Inputs(current: double.PositiveInfinity, arrival: 100, loads: [4, 4], demands: [1.2, 1.2], standing: 10, serviceTime: 0.2);
        Assert.All(Run(new BottleneckFairnessOptions(), late), rate => Assert.True(rate < 100, $"σ {rate}"));

        // Where a service takes 10 ms the configured 3 intervals stand.
        var fast = Inputs(current: double.PositiveInfinity, arrival: 100, loads: [4, 4], demands: [1.2, 1.2], standing: 3, serviceTime: 0.01);
        Assert.All(Run(new BottleneckFairnessOptions(), fast), rate => Assert.True(rate < 100, $"σ {rate}"));
    }

    [Fact]
    public void Backlog_IsDrainedFromTheHeldBackWorkflow_NotFromOneWithinItsShare()
    {
        // a offers 0.5 permits (within its fair share), b 2.5 and gets the other 1.5; 20 sub-tasks of 10 ms wait: 0.2
        // permits drain them in the 1 s drain time, and they come out of b's share: 1.3 ÷ 2.5 of its arrivals.
        var policy = new BottleneckFairnessPolicy();
        var rates = new double[2];
        var inputs = LocalRateInputs.Create(
            0.1,
            [Workflow("a", double.PositiveInfinity, 20), Workflow("b", double.PositiveInfinity, 100)],
            [new ResourceRateInputs("disk", 2, 22) { TotalDemand = 3, StandingQueueIntervals = 3, MeanServiceTime = 0.01 }],
            [2, 20],
            [0.5, 2.5]);
        policy.ComputeLocalRates(inputs, rates, 0);

        Assert.Equal(double.PositiveInfinity, rates[0]);
        Assert.Equal(100 * 1.3 / 2.5, rates[1], 9);
    }

    [Fact]
    public void BottleneckUtilization_HoldsAWorkflowBetweenItsShareOfThatAndOfTheWholeTarget()
    {
        // 10 permits at utilization 0.8: 8 are shared. a offers 2 (within its share); b, already limited at 80/s, 8.5 and
        // then 7.5. In the second interval the total (9.5) is under the target with the queue still standing: b's share
        // of 8 permits is 6, so σ goes to 80/s × 6 ÷ 7.5 = 64/s. Shares of the whole target would equal the loads there,
        // and b would ramp with the resource full.
        var policy = new BottleneckFairnessPolicy(new BottleneckFairnessOptions { BottleneckUtilization = 0.8 });
        var rates = new double[2];
        LocalRateInputs Step(double bDemand, int standing) => LocalRateInputs.Create(
            0.1,
            [Workflow("a", double.PositiveInfinity, 20), Workflow("b", 80, 80)],
            [new ResourceRateInputs("disk", 10, 2 + bDemand + 1) { TotalDemand = 2 + bDemand, StandingQueueIntervals = standing }],
            [2, bDemand + 1],
            [2, bDemand]);

        policy.ComputeLocalRates(Step(8.5, 3), rates, 0);
        Assert.Equal(double.PositiveInfinity, rates[0]);
        Assert.Equal(80 * 6 / 8.5, rates[1], 9);

        policy.ComputeLocalRates(Step(7.5, 4), rates, 0);
        Assert.Equal(double.PositiveInfinity, rates[0]);
        Assert.Equal(64, rates[1], 9);
    }

    [Fact]
    public void LimitedWorkflow_NearTheCapacity_RampsByTheSpareFraction()
    {
        // 95% of the resource offered: σ grows by 5% (or β), not by the 20% ramp factor that would overshoot the
        // capacity every interval until the standing-queue test catches up.
        var inputs = Inputs(current: 500, arrival: 1000, loads: [0.95, 0.95], demands: [0.95, 0.95], standing: 0);
        Assert.Equal(525, Run(new BottleneckFairnessOptions(), inputs)[0], 9);
    }

    [Fact]
    public void Ramp_OfAWorkflowOfferingLittle_StopsAtTheCeiling()
    {
        // 2 requests/s, ceiling 2 × max(initial rate 10/s, 2/s) = 20/s: β(1 + φ/n) ≈ 15/s would take σ from 15 to 30, and
        // the next interval's probe further; the safe defaults stop at the ceiling (then release to +∞).
        var inputs = Inputs(current: 15, arrival: 2, loads: [0.01, 0.01], demands: [0.01, 0.01], standing: 0);
        Assert.Equal([20.0, 20.0], Run(new BottleneckFairnessOptions(), inputs));
    }

    private static double[] Run(BottleneckFairnessOptions options, LocalRateInputs inputs)
    {
        var rates = new double[inputs.Workflows.Length];
        new BottleneckFairnessPolicy(options).ComputeLocalRates(inputs, rates, 0);
        return rates;
    }

    private WorkflowRateInputs Workflow(string name, double current, double arrival, double? admitted = null) =>
        new(_registry.Resolve(name), current, double.PositiveInfinity, arrival, admitted ?? (double.IsPositiveInfinity(current) ? arrival : Math.Min(current, arrival)));

    private LocalRateInputs Inputs(double current, double arrival, double[] loads, double[] demands, int standing, double serviceTime = 0, double? admitted = null)
    {
        return LocalRateInputs.Create(
            0.1,
            [Workflow("a", current, arrival, admitted), Workflow("b", current, arrival, admitted)],
            [new ResourceRateInputs("disk", 2, loads.Sum()) { TotalDemand = demands.Sum(), StandingQueueIntervals = standing, MeanServiceTime = serviceTime }],
            loads,
            demands);
    }
}
