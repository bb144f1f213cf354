// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

public class BottleneckFairnessPolicyTests
{
    private const double Inf = double.PositiveInfinity;

    [Fact]
    public void ComputeLocalRates_SpareCapacity_LeavesRampUpByScaledProbe()
    {
        // r1: φ = (10 − 4) / 10 = 0.6; r2: φ = (4 − 1) / 4 = 0.75; k′ = r1, used by a and b, so n = 2.
        // Step = β(1 + 0.6 / 2) = 10 · 1.3 = 13, for every leaf, including c which does not use r1.
        var inputs = new RateInputsBuilder().Resource("r1", 10).Resource("r2", 4)
            .Workflow("a", current: 50, loads: [2.5, 0])
            .Workflow("b", current: 20, loads: [1.5, 1])
            .Workflow("c", current: 30, loads: [0, 0])
            .Build();

        var rates = RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs);

        Assert.Equal(63, rates[0], 9);
        Assert.Equal(33, rates[1], 9);
        Assert.Equal(43, rates[2], 9);
    }

    [Fact]
    public void ComputeLocalRates_NeverLimitedLeaf_RampsFromInitialOrAdmittedRate()
    {
        // φ = 0.5 with one user: step = 10 · 1.5 = 15.
        var inputs = new RateInputsBuilder().Resource("cpu", 4)
            .Workflow("idle", current: Inf, admitted: 0, loads: [0])
            .Workflow("busy", current: Inf, admitted: 40, loads: [2])
            .Workflow("blocked", current: 0, admitted: 0, loads: [0])
            .Build();

        var rates = RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs);

        Assert.Equal([25.0, 55.0, 25.0], rates);
    }

    [Fact]
    public void ComputeLocalRates_NoResources_TreatsEverythingAsSpare()
    {
        // φ = 1, nobody loads a resource (n taken as 1): step = 10 · 2 = 20.
        var inputs = new RateInputsBuilder().Workflow("a", current: 5).Build();

        Assert.Equal([25.0], RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs));
    }

    [Fact]
    public void ComputeLocalRates_NonLeafWithSpareCapacity_InheritsDownstreamRate()
    {
        var inputs = new RateInputsBuilder().Resource("cpu", 10)
            .Workflow("a", current: 100, downstream: 42, loads: [3])
            .Workflow("b", current: Inf, downstream: 7.5, loads: [0])
            .Build();

        Assert.Equal([42.0, 7.5], RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs));
    }

    [Fact]
    public void ComputeLocalRates_Bottlenecked_CutsAggressiveToFairShareAndProbesLightOne()
    {
        // Σl = 18 > c = 10. Max-min shares: light 2 (its whole load), aggressive 8 of its 16, so ratio = 0.5.
        var inputs = new RateInputsBuilder().Resource("cpu", 10)
            .Workflow("aggressive", current: 90, loads: [16])
            .Workflow("light", current: 20, loads: [2])
            .Workflow("elsewhere", current: Inf, loads: [0])
            .Workflow("forwarder", current: 30, downstream: 15, loads: [0])
            .Build();

        var rates = RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs);

        Assert.Equal(45, rates[0]);
        Assert.Equal(30, rates[1]);
        Assert.Equal(Inf, rates[2]);
        Assert.Equal(15, rates[3]);
    }

    [Fact]
    public void ComputeLocalRates_MaxDecrease_LimitsTheCutPerInterval()
    {
        // The same overload as above: the fair cut would halve the aggressive workflow's rate (90 -> 45).
        var inputs = new RateInputsBuilder().Resource("cpu", 10)
            .Workflow("aggressive", current: 90, loads: [16])
            .Workflow("light", current: 20, loads: [2])
            .Build();

        var rates = RateInputsBuilder.Run(new BottleneckFairnessPolicy(AsWritten(o => o.MaxDecrease = 0.05)), inputs);

        Assert.Equal(90 * 0.95, rates[0], 9);
        Assert.Equal(30, rates[1]);
        Assert.Throws<ArgumentOutOfRangeException>(() => new BottleneckFairnessPolicy(new BottleneckFairnessOptions { MaxDecrease = 0 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => new BottleneckFairnessPolicy(new BottleneckFairnessOptions { MaxDecrease = 1.5 }));
    }

    [Fact]
    public void ComputeLocalRates_RampHeadroom_HoldsARateFarAboveWhatTheWorkflowOffers()
    {
        // Spare capacity (φ = 0.5, one user): step = 10 · 1.5 = 15. With headroom 2, a workflow arriving at 20/s may
        // ramp while σ < 40: 30 -> 45, but 45 and 500 are held. Without the bound, every rate grows.
        var inputs = new RateInputsBuilder().Resource("disk", 4)
            .Workflow("under", current: 30, arrival: 20, loads: [2])
            .Workflow("at", current: 45, arrival: 20, loads: [0])
            .Workflow("stale", current: 500, arrival: 20, loads: [0])
            .Workflow("quiet", current: 15, arrival: 0, loads: [0])
            .Build();

        var bounded = RateInputsBuilder.Run(new BottleneckFairnessPolicy(AsWritten(o => o.RampHeadroom = 2)), inputs);
        var unbounded = RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs);

        // "quiet" offers nothing: its ceiling is headroom × the initial rate (10), so 15 < 20 still ramps once.
        Assert.Equal([45.0, 45.0, 500.0, 30.0], bounded);
        Assert.Equal([45.0, 60.0, 515.0, 30.0], unbounded);
        Assert.Throws<ArgumentOutOfRangeException>(() => new BottleneckFairnessPolicy(new BottleneckFairnessOptions { RampHeadroom = 0.5 }));
    }

    [Fact]
    public void ComputeLocalRates_TargetLoad_LetsAShortQueueStandBeforeCutting()
    {
        // c = 10, Σl = 12: overloaded at the default target (a cut to the fair share) but not at 1.5 × c = 15,
        // where φ = (15 − 12) / 15 = 0.2 and both ramp by β(1 + 0.2 / 2) = 11.
        var inputs = new RateInputsBuilder().Resource("disk", 10)
            .Workflow("aggressive", current: 90, loads: [10])
            .Workflow("light", current: 20, loads: [2])
            .Build();

        var tolerant = RateInputsBuilder.Run(new BottleneckFairnessPolicy(AsWritten(o => o.TargetLoad = 1.5)), inputs);
        var strict = RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs);

        Assert.Equal([101.0, 31.0], tolerant);
        Assert.Equal(72, strict[0], 9);
        Assert.Throws<ArgumentOutOfRangeException>(() => new BottleneckFairnessPolicy(new BottleneckFairnessOptions { TargetLoad = 0.9 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => new BottleneckFairnessPolicy(new BottleneckFairnessOptions { TargetLoad = 5 }));
    }

    [Fact]
    public void ComputeLocalRates_TargetLoad_SharesTheTargetNotTheCapacity()
    {
        // c = 10 at target 1.5: 15 permits to share. Σl = 18 > 15: light keeps its 2, aggressive gets 13 of its 16.
        var inputs = new RateInputsBuilder().Resource("disk", 10)
            .Workflow("aggressive", current: 80, loads: [16])
            .Workflow("light", current: 20, loads: [2])
            .Build();

        var rates = RateInputsBuilder.Run(new BottleneckFairnessPolicy(AsWritten(o => o.TargetLoad = 1.5)), inputs);

        Assert.Equal(80 * 13.0 / 16, rates[0], 9);
        Assert.Equal(30, rates[1]);
    }

    [Fact]
    public void ComputeLocalRates_BottleneckedNeverLimited_CutsFromMeasuredRate()
    {
        var inputs = new RateInputsBuilder().Resource("cpu", 10)
            .Workflow("admitted", current: Inf, arrival: 100, admitted: 80, loads: [16])
            .Workflow("arrival-only", current: Inf, arrival: 12, admitted: 0, loads: [2])
            .Build();

        var rates = RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs);

        Assert.Equal([40.0, 22.0], rates);
    }

    [Fact]
    public void ComputeLocalRates_PicksMostOverloadedResource()
    {
        // r1 has spare capacity (φ = 0.5), r2 is overloaded (φ = −1): k′ = r2, shares 1 and 1 of loads 3 and 1.
        var inputs = new RateInputsBuilder().Resource("r1", 10).Resource("r2", 2)
            .Workflow("a", current: 60, loads: [4, 3])
            .Workflow("b", current: 10, loads: [1, 1])
            .Build();

        var rates = RateInputsBuilder.Run(new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten()), inputs);

        Assert.Equal(20, rates[0], 9);
        Assert.Equal(20, rates[1], 9);
    }

    [Fact]
    public void ComputeLocalRates_CutBelowMinimum_ClampsToMinimumRate()
    {
        var inputs = new RateInputsBuilder().Resource("cpu", 10)
            .Workflow("a", current: 1.5, loads: [16])
            .Workflow("b", current: 20, loads: [2])
            .Build();

        var rates = RateInputsBuilder.Run(new BottleneckFairnessPolicy(AsWritten(o => o.MinimumRate = 1)), inputs);

        Assert.Equal(1, rates[0]);
    }

    [Fact]
    public void ComputeLocalRates_ClosedLoop_AggressiveSettlesNearFairShareLightKeepsDemand()
    {
        // One resource of 10 permits; each request holds a permit for 0.1 s, so load = admitted rate × 0.1.
        // Demands: aggressive 150 req/s (load 15), light 25 req/s (load 2.5). Fair: light 2.5, aggressive 7.5 = 75 req/s.
        const double ServiceTime = 0.1;
        double[] arrival = [150, 25];
        double[] sigma = [Inf, Inf];
        var policy = new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten());
        for (var step = 0; step < 60; step++)
        {
            var admitted = new[] { Math.Min(sigma[0], arrival[0]), Math.Min(sigma[1], arrival[1]) };
            if (step >= 1)
            {
                // After the first cut the aggressive workflow is never pushed below its fair share, and the light one is never limited.
                Assert.InRange(admitted[0], 75 - 1e-9, 85 + 1e-9);
                Assert.Equal(25, admitted[1]);
            }

            var inputs = new RateInputsBuilder().Resource("cpu", 10)
                .Workflow("aggressive", sigma[0], arrival: arrival[0], admitted: admitted[0], loads: [admitted[0] * ServiceTime])
                .Workflow("light", sigma[1], arrival: arrival[1], admitted: admitted[1], loads: [admitted[1] * ServiceTime])
                .Build();
            sigma = RateInputsBuilder.Run(policy, inputs);
        }

        // The aggressive workflow probes at most one step (β = 10) above its fair share of 75 req/s.
        Assert.InRange(sigma[0], 75 - 1e-9, 85 + 1e-9);
    }

    [Fact]
    public void ComputeLocalRates_SteadyState_DoesNotAllocate()
    {
        var inputs = new RateInputsBuilder().Resource("cpu", 10)
            .Workflow("a", current: 90, loads: [16])
            .Workflow("b", current: 20, loads: [2])
            .Build();
        var policy = new BottleneckFairnessPolicy(BottleneckFairnessOptions.AsWritten());
        var rates = new double[2];
        policy.ComputeLocalRates(inputs, rates, 0);

        var before = GC.GetAllocatedBytesForCurrentThread();
        policy.ComputeLocalRates(inputs, rates, 0);

        Assert.Equal(before, GC.GetAllocatedBytesForCurrentThread());
    }

    [Fact]
    public void CreateFactory_Defaults_NamedAndCreatesOnePolicyPerProcess()
    {
        var factory = BottleneckFairnessPolicy.CreateFactory();
        var context = new RateLimitPolicyContext(new WorkflowRegistry(), TimeSpan.FromMilliseconds(100));

        Assert.Equal(RateLimitPolicies.BottleneckFairness, factory.Name);
        Assert.IsType<BottleneckFairnessPolicy>(factory.Create(context));
        Assert.NotSame(factory.Create(context), factory.Create(context));
    }

    [Fact]
    public void CreateFactory_OptionsEditedAfterwards_KeepsSnapshot()
    {
        var options = new BottleneckFairnessOptions();
        var factory = BottleneckFairnessPolicy.CreateFactory(options);
        options.ProbeFactor = -1;

        var policy = factory.Create(new RateLimitPolicyContext(new WorkflowRegistry(), TimeSpan.FromMilliseconds(100)));

        Assert.Equal([25.0], RateInputsBuilder.Run(policy, new RateInputsBuilder().Workflow("a", current: 5, arrival: 20).Build()));
    }

    [Theory]
    [InlineData(nameof(BottleneckFairnessOptions.ProbeFactor), 0)]
    [InlineData(nameof(BottleneckFairnessOptions.ProbeFactor), -1)]
    [InlineData(nameof(BottleneckFairnessOptions.ProbeFactor), double.NaN)]
    [InlineData(nameof(BottleneckFairnessOptions.ProbeFactor), double.PositiveInfinity)]
    [InlineData(nameof(BottleneckFairnessOptions.InitialRate), 0)]
    [InlineData(nameof(BottleneckFairnessOptions.InitialRate), double.PositiveInfinity)]
    [InlineData(nameof(BottleneckFairnessOptions.MinimumRate), 0)]
    [InlineData(nameof(BottleneckFairnessOptions.MinimumRate), double.NaN)]
    public void CreateFactory_InvalidOptions_Throws(string option, double value)
    {
        var options = new BottleneckFairnessOptions();
        typeof(BottleneckFairnessOptions).GetProperty(option)!.SetValue(options, value);

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => BottleneckFairnessPolicy.CreateFactory(options));

        Assert.Equal(option, error.ParamName);
    }

    /// <summary>Algorithm 4 as written, with one knob changed: these tests pin the algorithm's own arithmetic.</summary>
    private static BottleneckFairnessOptions AsWritten(Action<BottleneckFairnessOptions> change)
    {
        var options = BottleneckFairnessOptions.AsWritten();
        change(options);
        return options;
    }
}
