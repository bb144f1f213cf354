// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

/// <summary>
/// <see cref="BottleneckFairnessOptions.OverloadHold"/> (docs/decisions/0011, eighth amendment), on one process with one
/// resource of 10 permits and 10 ms sub-tasks (1,000 requests/s): an aggressor and, unless it is alone, a compliant
/// tenant at 2 permits (200/s). The loop admits the aggressor at min(offered, σ) each interval, and a queue stands while
/// the demand exceeds the capacity.
/// </summary>
public class BottleneckFairnessOverloadHoldTests
{
    private const double Interval = 0.1;
    private const double ServiceTime = 0.01;
    private const int Capacity = 10;
    private const double Compliant = 200;
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void AfterAFlood_TheAggressorIsHeldAtItsShareOfTheUtilization_NotRampedBackIntoTheOverload()
    {
        var held = new Loop(this, Hold(0.7), compliant: Compliant);
        var unheld = new Loop(this, new BottleneckFairnessOptions(), compliant: Compliant);
        held.Run(intervals: 150, offered: 3000);
        unheld.Run(intervals: 150, offered: 3000);

        // 0.7 × 10 permits less the compliant tenant's 2 leaves 5 permits, 500/s, once the flood's cut has settled.
        var late = held.Sigmas.Skip(100).ToList();
        Assert.All(late, s => Assert.InRange(s, 450, 550));
        Assert.True(held.QueuedIntervals.Skip(50).All(q => q == 0), "no queue stands once the aggressor is held");

        // Without the hold the aggressor is ramped back to all the compliant tenant leaves, 800/s: the resource is kept
        // full, and under FIFO the compliant tenant waits behind it.
        Assert.True(unheld.Sigmas.Skip(50).Max() > 780, $"unheld σ peaks at {unheld.Sigmas.Skip(50).Max():F0}/s");
    }

    [Fact]
    public void AloneOnTheResource_AHeldWorkflowMayFillTheTarget()
    {
        var alone = new Loop(this, Hold(0.7), compliant: 0);
        alone.Run(intervals: 150, offered: 3000);

        // Holding it below the target would protect nobody: it settles at the capacity, not at 70% of it.
        Assert.All(alone.Sigmas.Skip(100), s => Assert.InRange(s, 900, 1000));
    }

    [Fact]
    public void OnceTheAggressorNoLongerUsesItsLimit_ItIsReleased()
    {
        var loop = new Loop(this, Hold(0.7), compliant: Compliant);
        loop.Run(intervals: 100, offered: 3000);
        Assert.InRange(loop.Sigmas[^1], 450, 550);

        // It now offers 100/s, under half its σ: released, it is limited no more.
        loop.Run(intervals: 5, offered: 100);

        Assert.True(double.IsPositiveInfinity(loop.Sigmas[^1]), $"σ is {loop.Sigmas[^1]}");
    }

    [Fact]
    public void OnAlgorithm4AsWritten_WhoseRampIsUnbounded_AHoldStillEnds()
    {
        // As written, the flood's first cut (from σ = +∞, which starts no hold) takes the aggressor to its fair share of
        // the whole capacity at once. The compliant tenant then jumps to 5 permits: a 30% overload cuts the aggressor,
        // limited now, again, and holds it.
        var options = BottleneckFairnessOptions.AsWritten();
        options.OverloadHold = new OverloadHoldOptions { Utilization = 0.7 };
        var loop = new Loop(this, options, compliant: Compliant);
        loop.Run(intervals: 5, offered: 3000);
        loop.Compliant = 500;
        loop.Run(intervals: 5, offered: 3000);
        loop.Compliant = Compliant;
        loop.Run(intervals: 50, offered: 3000);
        Assert.All(loop.Sigmas.Skip(30), s => Assert.InRange(s, 450, 550));

        // Its ramp is unbounded (RampHeadroom +∞), so the hold is released at twice the arrivals: then σ ramps by β =
        // 10/s per interval without bound, as Algorithm 4 is written, past the 200/s a hold would keep it near.
        loop.Run(intervals: 100, offered: 100);

        Assert.True(loop.Sigmas[^1] > 400, $"σ is {loop.Sigmas[^1]:F0}/s");
    }

    [Fact]
    public void AMildOverload_StartsNoHold()
    {
        // 1.1x the capacity for 3 s (a cut, but under the minimum overload of 20%), then the aggressor offers 700/s.
        var held = new Loop(this, Hold(0.5), compliant: Compliant);
        var unheld = new Loop(this, new BottleneckFairnessOptions(), compliant: Compliant);
        foreach (var loop in new[] { held, unheld })
        {
            loop.Run(intervals: 30, offered: 900);
            loop.Run(intervals: 50, offered: 700);
        }

        Assert.Contains(unheld.Sigmas, double.IsFinite);
        Assert.Equal(unheld.Sigmas, held.Sigmas);
    }

    [Fact]
    public void OffByDefault_AndAsWritten()
    {
        Assert.Null(new BottleneckFairnessOptions().OverloadHold);
        Assert.Null(BottleneckFairnessOptions.AsWritten().OverloadHold);
        Assert.Equal(0.7, new OverloadHoldOptions().Utilization);
        Assert.Equal(0.2, new OverloadHoldOptions().MinimumOverload);
    }

    [Fact]
    public void OptionsChangedAfterTheFactoryIsMade_DoNotReachItsPolicies()
    {
        var options = Hold(0.7);
        var factory = BottleneckFairnessPolicy.CreateFactory(options);
        options.OverloadHold!.Utilization = 1;
        var loop = new Loop(this, (BottleneckFairnessPolicy)factory.Create(new RateLimitPolicyContext(_registry, TimeSpan.FromSeconds(Interval))), compliant: Compliant);

        loop.Run(intervals: 150, offered: 3000);

        Assert.All(loop.Sigmas.Skip(100), s => Assert.InRange(s, 450, 550));
    }

    [Theory]
    [InlineData(0, 0.2, "OverloadHold.Utilization")]
    [InlineData(1.01, 0.2, "OverloadHold.Utilization")]
    [InlineData(double.NaN, 0.2, "OverloadHold.Utilization")]
    [InlineData(0.7, -0.1, "OverloadHold.MinimumOverload")]
    [InlineData(0.7, double.PositiveInfinity, "OverloadHold.MinimumOverload")]
    public void CreateFactory_BadHold_NamesTheSetting(double utilization, double minimum, string parameter)
    {
        var options = new BottleneckFairnessOptions { OverloadHold = new() { Utilization = utilization, MinimumOverload = minimum } };

        var error = Assert.ThrowsAny<ArgumentException>(() => BottleneckFairnessPolicy.CreateFactory(options));

        Assert.Equal(parameter, error.ParamName);
    }

    private static BottleneckFairnessOptions Hold(double utilization) => new() { OverloadHold = new OverloadHoldOptions { Utilization = utilization } };

    /// <summary>The control loop of one process: the policy's σ for the aggressor limits what it admits next interval.</summary>
    private sealed class Loop(BottleneckFairnessOverloadHoldTests test, BottleneckFairnessPolicy policy, double compliant)
    {
        /// <summary>Gets or sets the compliant tenant's rate, requests per second.</summary>
        public double Compliant { get; set; } = compliant;

        private double _sigma = double.PositiveInfinity;
        private double _compliantSigma = double.PositiveInfinity;
        private int _standing;

        public Loop(BottleneckFairnessOverloadHoldTests test, BottleneckFairnessOptions options, double compliant)
            : this(test, new BottleneckFairnessPolicy(options), compliant)
        {
        }

        public List<double> Sigmas { get; } = [];

        public List<int> QueuedIntervals { get; } = [];

        public void Run(int intervals, double offered)
        {
            for (var i = 0; i < intervals; i++)
            {
                var admitted = Math.Min(offered, _sigma);
                var aggressorLoad = admitted * ServiceTime;
                var compliantLoad = Compliant * ServiceTime;
                var total = aggressorLoad + compliantLoad;
                _standing = total > Capacity ? _standing + 1 : 0;
                var resource = new ResourceRateInputs("disk", Capacity, total) { TotalDemand = total, MeanServiceTime = ServiceTime, StandingQueueIntervals = _standing };
                var inputs = LocalRateInputs.Create(
                    Interval,
                    [
                        new WorkflowRateInputs(test._registry.Resolve("aggressor"), _sigma, double.PositiveInfinity, offered, admitted),
                        new WorkflowRateInputs(test._registry.Resolve("compliant"), _compliantSigma, double.PositiveInfinity, Compliant, Compliant),
                    ],
                    [resource],
                    [aggressorLoad, compliantLoad],
                    [aggressorLoad, compliantLoad]);
                double[] rates = [double.PositiveInfinity, double.PositiveInfinity];
                policy.ComputeLocalRates(inputs, rates, 0);
                _sigma = rates[0];
                _compliantSigma = rates[1];
                Sigmas.Add(_sigma);
                QueuedIntervals.Add(_standing);
            }
        }
    }
}
