// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

/// <summary>
/// <see cref="BottleneckFairnessOptions.OverloadConfidence"/> (docs/decisions/0011, seventh amendment): one policy stepped
/// interval by interval on one resource of 2 permits shared by two workflows, its queue standing throughout (the
/// congestion test's other condition always met), fed a seeded noisy demand.
/// </summary>
public class BottleneckFairnessOverloadConfidenceTests
{
    private const double Interval = 0.1;
    private const int Intervals = 600;
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void NoisyDemand_AtNinetyFivePercent_IsCutWithoutTheTest_ButNotWithIt()
    {
        // Clumped arrivals: each interval's demand uniform in [0, 3.8] permits, 1.9 on average. The 2 s average's
        // standard error is about 0.18 permits, so it crosses the 2 permits now and then.
        var plain = Run(new BottleneckFairnessOptions { OverloadConfidence = 0 }, Noisy(mean: 1.9, seed: 7));
        var confident = Run(new BottleneckFairnessOptions { OverloadConfidence = 3 }, Noisy(mean: 1.9, seed: 7));

        Assert.True(plain.Cuts > 0, "the plain average crosses the capacity on noise alone");
        Assert.Equal(0, confident.Cuts);
    }

    [Fact]
    public void SustainedOverload_WithoutNoise_IsCutAsWithoutTheTest()
    {
        var plain = Run(new BottleneckFairnessOptions { OverloadConfidence = 0 }, Constant(3));
        var confident = Run(new BottleneckFairnessOptions { OverloadConfidence = 3 }, Constant(3));

        // Cut once the queue has stood for the congestion window (3 intervals); no noise, so no standard error to wait out.
        Assert.Equal(3, plain.FirstCut);
        Assert.Equal(plain.FirstCut, confident.FirstCut);
    }

    [Fact]
    public void GrowingBacklog_IsOverload_ThoughTheDemandReadsWithinItsNoise()
    {
        // Sequential fan-out: demand reads about the capacity while every permit is held and the queue grows by half a
        // permit a second; beside it the same demand with the load following it, no queue building.
        var flat = Run(new BottleneckFairnessOptions { OverloadConfidence = 3 }, Noisy(mean: 2, seed: 11));
        var growing = Run(new BottleneckFairnessOptions { OverloadConfidence = 3 }, Noisy(mean: 2, seed: 11), i => 2 + (0.05 * i));

        // The growth shows once the load's average stands a smoothing time (2 s, 20 intervals) past a mark, itself taken
        // every smoothing time: within four of them.
        Assert.Equal(0, flat.Cuts);
        Assert.InRange(growing.FirstCut, 1, 80);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(11)]
    [InlineData(double.NaN)]
    public void CreateFactory_ConfidenceOutOfRange_Throws(double confidence)
    {
        var options = new BottleneckFairnessOptions { OverloadConfidence = confidence };

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => BottleneckFairnessPolicy.CreateFactory(options));

        Assert.Equal(nameof(BottleneckFairnessOptions.OverloadConfidence), error.ParamName);
    }

    [Fact]
    public void ThreeByDefault_OffAsWritten()
    {
        Assert.Equal(3, new BottleneckFairnessOptions().OverloadConfidence);
        Assert.Equal(0, BottleneckFairnessOptions.AsWritten().OverloadConfidence);
    }

    private static Func<int, double> Noisy(double mean, int seed)
    {
        var random = new Random(seed);
        var demands = Enumerable.Range(0, Intervals).Select(_ => random.NextDouble() * 2 * mean).ToArray();
        return i => demands[i];
    }

    private static Func<int, double> Constant(double demand) => _ => demand;

    /// <summary>
    /// Runs the policy for <see cref="Intervals"/> intervals, σ carried forward as the controller does; the load (held
    /// plus waiting) is <paramref name="loadAt"/>, or the demand when it is not given.
    /// </summary>
    private (int Cuts, int FirstCut) Run(BottleneckFairnessOptions options, Func<int, double> demandAt, Func<int, double>? loadAt = null)
    {
        var policy = new BottleneckFairnessPolicy(options);
        double[] rates = [double.PositiveInfinity, double.PositiveInfinity];
        var (cuts, first) = (0, 0);
        for (var i = 0; i < Intervals; i++)
        {
            var demand = demandAt(i);
            var each = demand / 2;
            var inputs = LocalRateInputs.Create(
                Interval,
                [Workflow("a", rates[0]), Workflow("b", rates[1])],
                [new ResourceRateInputs("disk", 2, loadAt?.Invoke(i) ?? demand) { TotalDemand = demand, StandingQueueIntervals = i + 1, MeanServiceTime = 0.01 }],
                [each, each],
                [each, each]);
            var before = rates.ToArray();
            policy.ComputeLocalRates(inputs, rates, 0);
            if (rates.Zip(before).Any(r => r.First < r.Second))
            {
                cuts++;
                first = first == 0 ? i + 1 : first;
            }
        }

        return (cuts, first);
    }

    private WorkflowRateInputs Workflow(string name, double current) =>
        new(_registry.Resolve(name), current, double.PositiveInfinity, 100, double.IsPositiveInfinity(current) ? 100 : Math.Min(current, 100));
}
