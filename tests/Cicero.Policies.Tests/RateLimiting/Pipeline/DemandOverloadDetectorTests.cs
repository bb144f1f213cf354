// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;

namespace Cicero.Policies.Tests.RateLimiting.Pipeline;

/// <summary>The overload detector alone: Algorithm 4's queue detector as written, and the default's patience.</summary>
public class DemandOverloadDetectorTests
{
    private readonly PipelineInputs _build = new();

    [Fact]
    public void AsWritten_LoadOverCapacity_IsTheBottleneck_WithItsOverload()
    {
        // Load 3 on 2 permits: φ = (2 − 3) ÷ 2 = −0.5.
        var inputs = PipelineInputs.OneResource(2, [_build.Workflow("a", 20, 20, 20), _build.Workflow("b", 20, 20, 20)], [2, 1]);
        var reading = new DemandOverloadDetector(BottleneckFairnessOptions.AsWritten()).Detect(inputs);

        Assert.True(reading.Overloaded);
        Assert.Equal(0, reading.Bottleneck);
        Assert.Equal(-0.5, reading.Overload, 12);
        Assert.Equal(2, reading.Capacity, 12);
        Assert.False(reading.Flood);
    }

    [Fact]
    public void AsWritten_LoadUnderCapacity_ReportsTheSpareFraction()
    {
        // Load 1.5 on 2 permits: φ = 0.25.
        var inputs = PipelineInputs.OneResource(2, [_build.Workflow("a", 20, 20, 20)], [1.5]);
        var reading = new DemandOverloadDetector(BottleneckFairnessOptions.AsWritten()).Detect(inputs);

        Assert.False(reading.Overloaded);
        Assert.Equal(0, reading.Tightest);
        Assert.Equal(0.25, reading.Spare, 12);
    }

    [Fact]
    public void Default_ExcessWithoutAStandingQueue_IsNotYetOverload_AFloodIsAtOnce()
    {
        var detector = new DemandOverloadDetector(new BottleneckFairnessOptions());
        var excess = PipelineInputs.OneResource(2, [_build.Workflow("a", double.PositiveInfinity, 30, 30)], [3], standing: 2);
        Assert.False(detector.Detect(excess).Overloaded);

        // Demand 5 on 2 permits is past twice the target: one interval of queue is enough, and the reading says flood.
        var flood = new DemandOverloadDetector(new BottleneckFairnessOptions());
        var reading = flood.Detect(PipelineInputs.OneResource(2, [_build.Workflow("a", double.PositiveInfinity, 50, 50)], [5], standing: 1));
        Assert.True(reading.Overloaded);
        Assert.True(reading.Flood);
    }
}
