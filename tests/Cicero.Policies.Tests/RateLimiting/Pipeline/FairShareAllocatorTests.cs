// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;

namespace Cicero.Policies.Tests.RateLimiting.Pipeline;

/// <summary>The allocator alone (Algorithm 4, lines 2-15, as written), with hand-computed rates.</summary>
public class FairShareAllocatorTests
{
    private readonly PipelineInputs _build = new();

    [Fact]
    public void Spare_LeafRampsByTheProbe_NonLeafInheritsItsDownstreamRate()
    {
        // Load 1 on 2 permits: φ = 0.5, both workflows load it (n = 2): a leaf grows by β(1 + φ/n) = 10 × 1.25.
        var inputs = PipelineInputs.OneResource(
            2,
            [_build.Workflow("leaf", 20, 20, 20), _build.Workflow("inner", 20, 20, 20, downstream: 7)],
            [0.5, 0.5]);
        var interval = PipelineInputs.Read(inputs);
        var rates = new double[2];

        new FairShareAllocator(BottleneckFairnessOptions.AsWritten()).Allocate(interval, rates);

        Assert.Equal(32.5, rates[0], 12);
        Assert.Equal(7, rates[1], 12);
        Assert.False(interval.WasCut(0));
    }

    [Fact]
    public void Bottleneck_CutsTheWorkflowAboveItsShare_ProbesTheOneWithin()
    {
        // Loads 3 and 1 on 2 permits: max-min shares 1 and 1. a: ratio 1/3, σ 30 → 10; b: ratio 1, σ 30 → 30 + β = 40.
        var inputs = PipelineInputs.OneResource(2, [_build.Workflow("a", 30, 30, 30), _build.Workflow("b", 30, 30, 30)], [3, 1]);
        var interval = PipelineInputs.Read(inputs);
        var rates = new double[2];

        new FairShareAllocator(BottleneckFairnessOptions.AsWritten()).Allocate(interval, rates);

        Assert.Equal(10, rates[0], 12);
        Assert.Equal(40, rates[1], 12);
        Assert.True(interval.WasCut(0));
        Assert.False(interval.WasCut(1));
    }

    [Fact]
    public void Bottleneck_TheDecreaseLimitBoundsOneCut()
    {
        // As above with MaxDecrease 0.5: a's ratio 1/3 is floored at 0.5, so σ 30 → 15.
        var options = BottleneckFairnessOptions.AsWritten();
        options.MaxDecrease = 0.5;
        var inputs = PipelineInputs.OneResource(2, [_build.Workflow("a", 30, 30, 30), _build.Workflow("b", 30, 30, 30)], [3, 1]);
        var rates = new double[2];

        new FairShareAllocator(options).Allocate(PipelineInputs.Read(inputs, options), rates);

        Assert.Equal(15, rates[0], 12);
    }
}
