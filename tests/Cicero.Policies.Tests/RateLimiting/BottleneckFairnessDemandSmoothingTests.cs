// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

/// <summary>
/// <see cref="BottleneckFairnessOptions.DemandSmoothingTime"/> (docs/decisions/0011, fourth amendment): one policy stepped
/// interval by interval on one resource of 2 permits shared by two workflows at 100 requests/s each.
/// </summary>
public class BottleneckFairnessDemandSmoothingTests
{
    private const double Interval = 0.1;
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void BurstAboveTheCapacity_ShorterThanTheSmoothingTime_IsNotCut_ButIsWithoutSmoothing()
    {
        // 80% busy for 3 s, then 0.5 s at 1.5x the capacity with the queue standing throughout the burst.
        var smoothed = new Stepper(this, new BottleneckFairnessOptions());
        var raw = new Stepper(this, new BottleneckFairnessOptions { DemandSmoothingTime = TimeSpan.Zero });
        foreach (var stepper in new[] { smoothed, raw })
        {
            stepper.Run(intervals: 30, demand: 1.6, standing: false);
            stepper.Run(intervals: 5, demand: 3, standing: true);
        }

        Assert.Equal(0, smoothed.Cuts);
        Assert.True(raw.Cuts > 0, "without smoothing the burst is cut once the queue has stood for 3 intervals");
    }

    [Fact]
    public void SustainedOverload_IsCutOnceTheAverageCrossesTheCapacity()
    {
        // 1.5x the capacity for good: a 2 s average (weight 0.05 per interval) passes 2 permits after 7 intervals.
        // With the overload confidence on, the jump itself is noise to the average's standard error for a few intervals more.
        var stepper = new Stepper(this, new BottleneckFairnessOptions { OverloadConfidence = 0 });
        var confident = new Stepper(this, new BottleneckFairnessOptions());
        stepper.Run(intervals: 30, demand: 1.6, standing: false);
        confident.Run(intervals: 30, demand: 1.6, standing: false);
        var first = stepper.Run(intervals: 40, demand: 3, standing: true);
        var confidentFirst = confident.Run(intervals: 40, demand: 3, standing: true);

        Assert.InRange(first, 7, 12);
        Assert.InRange(confidentFirst, first + 1, first + 10);

        // Each workflow's fair share is 1 of the 1.5 permits it offers, less its half of the backlog's drain (1 waiting
        // sub-task of 10 ms in the 1 s drain time: 0.01 permits): its level is 100/s × 0.995 ÷ 1.5.
        Assert.All(stepper.Rates, rate => Assert.Equal(100 * 0.995 / 1.5, rate, 6));
    }

    [Fact]
    public void Flood_IsCutOnTheFirstIntervalOfQueue_WhateverTheAverage()
    {
        // 5x the capacity arrives at once: the average has barely moved, the current interval is a flood.
        var stepper = new Stepper(this, new BottleneckFairnessOptions());
        stepper.Run(intervals: 30, demand: 1.6, standing: false);
        var first = stepper.Run(intervals: 1, demand: 10, standing: true);

        Assert.Equal(1, first);

        // Shares come from the current demand (5 permits each), not the average, and the cut goes to the level at once
        // (no decrease limit): each keeps 1 permit less half the backlog's drain (8 waiting × 10 ms in 1 s: 0.08
        // permits), 100/s × 0.96 ÷ 5.
        Assert.All(stepper.Rates, rate => Assert.Equal(100 * 0.96 / 5, rate, 6));
    }

    [Fact]
    public void CreateFactory_NegativeSmoothingTime_Throws()
    {
        var options = new BottleneckFairnessOptions { DemandSmoothingTime = TimeSpan.FromSeconds(-1) };

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => BottleneckFairnessPolicy.CreateFactory(options));

        Assert.Equal(nameof(BottleneckFairnessOptions.DemandSmoothingTime), error.ParamName);
    }

    [Fact]
    public void AsWritten_DoesNotSmooth()
    {
        Assert.Equal(TimeSpan.Zero, BottleneckFairnessOptions.AsWritten().DemandSmoothingTime);
    }

    /// <summary>Feeds one policy interval after interval, carrying σ forward as the rate adaptation controller does.</summary>
    private sealed class Stepper(BottleneckFairnessDemandSmoothingTests owner, BottleneckFairnessOptions options)
    {
        private readonly BottleneckFairnessPolicy _policy = new(options);
        private int _standing;

        public double[] Rates { get; } = [double.PositiveInfinity, double.PositiveInfinity];

        public int Cuts { get; private set; }

        /// <summary>Runs intervals at a total offered demand (in permits, split evenly); returns the first one (1-based) with a cut, or 0.</summary>
        public int Run(int intervals, double demand, bool standing)
        {
            var first = 0;
            for (var i = 1; i <= intervals; i++)
            {
                _standing = standing ? _standing + 1 : 0;
                var each = demand / 2;
                var inputs = LocalRateInputs.Create(
                    Interval,
                    [owner.Workflow("a", Rates[0]), owner.Workflow("b", Rates[1])],
                    [new ResourceRateInputs("disk", 2, demand) { TotalDemand = demand, StandingQueueIntervals = _standing, MeanServiceTime = 0.01 }],
                    [each, each],
                    [each, each]);
                _policy.ComputeLocalRates(inputs, Rates, 0);
                if (Rates.Any(double.IsFinite))
                {
                    Cuts++;
                    first = first == 0 ? i : first;
                }
            }

            return first;
        }
    }

    private WorkflowRateInputs Workflow(string name, double current) =>
        new(_registry.Resolve(name), current, double.PositiveInfinity, 100, double.IsPositiveInfinity(current) ? 100 : Math.Min(current, 100));
}
