// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;

namespace Cicero.Policies.Tests.RateLimiting.Pipeline;

/// <summary>Each stage of the rate-control pipeline alone, after Algorithm 4's detector and allocator, with hand-computed rates.</summary>
public class RateControlStageTests
{
    private readonly PipelineInputs _build = new();

    [Fact]
    public void HeldRateRegrowth_LimitsGrowthWhileBusy_NotWhenIdle()
    {
        var stage = new HeldRateRegrowthStage(new HeldRateRegrowthOptions());
        var busy = PipelineInputs.Read(PipelineInputs.OneResource(2, [_build.Workflow("a", 100, 300, 100)], [1.8]));
        var rates = new[] { 200.0 };

        stage.Apply(busy, rates);

        // σ 100 regrows by at most 100 × (1.02^0.1 − 1) + 1 × 0.1 in a 100 ms interval.
        Assert.Equal((100 * Math.Pow(1.02, 0.1)) + 0.1, rates[0], 9);

        var idle = PipelineInputs.Read(PipelineInputs.OneResource(2, [_build.Workflow("a", 100, 300, 100)], [1]));
        rates[0] = 200;
        new HeldRateRegrowthStage(new HeldRateRegrowthOptions()).Apply(idle, rates);
        Assert.Equal(200, rates[0]);
    }

    [Fact]
    public void OverloadHold_HoldsTheCutWorkflowAtItsShareOfTheUtilization()
    {
        // Loads 3 and 1 on 2 permits (φ = −0.5, past MinimumOverload 0.2): the allocator cuts a (σ 30 → 10). Held, a
        // counts at twice its load: max-min of 0.7 × 2 = 1.4 over [6, 1] gives 0.7 each, so a's level is 30 × 0.7 ÷ 3 = 7.
        var options = BottleneckFairnessOptions.AsWritten();
        var interval = PipelineInputs.Read(PipelineInputs.OneResource(2, [_build.Workflow("a", 30, 30, 30), _build.Workflow("b", 30, 30, 30)], [3, 1]));
        var rates = new double[2];
        new FairShareAllocator(options).Allocate(interval, rates);

        new OverloadHoldStage(new OverloadHoldOptions(), options).Apply(interval, rates);

        Assert.Equal(7, rates[0], 12);
        Assert.Equal(40, rates[1], 12);
    }

    [Fact]
    public void OverloadHold_AFirstCutOfAnUnlimitedWorkflow_StartsNoHold()
    {
        var options = BottleneckFairnessOptions.AsWritten();
        var interval = PipelineInputs.Read(PipelineInputs.OneResource(2, [_build.Workflow("a", double.PositiveInfinity, 30, 30), _build.Workflow("b", 30, 30, 30)], [3, 1]));
        var rates = new double[2];
        new FairShareAllocator(options).Allocate(interval, rates);
        var cut = rates[0];

        new OverloadHoldStage(new OverloadHoldOptions(), options).Apply(interval, rates);

        Assert.Equal(cut, rates[0]);
    }

    [Fact]
    public void GoodputLimit_PersistentFailures_LimitToHeadroomTimesTheSuccessRate_ThenItGrowsBack()
    {
        // 80 of 100 requests/s fail: after the 2 s persistence, σ is limited to 2 × the success rate of 20/s.
        var stage = new GoodputLimitStage(new GoodputLimitOptions(), BottleneckFairnessOptions.AsWritten());
        var rates = new double[1];
        for (var step = 0; step < 10; step++)
        {
            rates[0] = double.PositiveInfinity;
            stage.Apply(Failing(failed: 8, succeeded: 2), rates);
        }

        Assert.Equal(double.PositiveInfinity, rates[0]);
        for (var step = 0; step < 20; step++)
        {
            rates[0] = double.PositiveInfinity;
            stage.Apply(Failing(failed: 8, succeeded: 2), rates);
        }

        Assert.Equal(40, rates[0], 6);
        for (var step = 0; step < 20; step++)
        {
            rates[0] = double.PositiveInfinity;
            stage.Apply(Failing(failed: 0, succeeded: 10), rates);
        }

        Assert.True(rates[0] > 40, $"σ {rates[0]}");
    }

    private RateControlInterval Failing(long failed, long succeeded) =>
        PipelineInputs.Read(PipelineInputs.OneResource(2, [_build.Workflow("a", double.PositiveInfinity, 100, 100) with { Failed = failed, Succeeded = succeeded }], [1]));
}
