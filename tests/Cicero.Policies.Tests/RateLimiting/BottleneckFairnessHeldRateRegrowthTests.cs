// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

/// <summary>
/// <see cref="BottleneckFairnessOptions.HeldRateRegrowth"/> (docs/decisions/0011, seventh amendment): a workflow held at
/// 10/s while it offers 50/s, on one resource of 10 permits with spare capacity, where the ramp alone would raise σ.
/// </summary>
public class BottleneckFairnessHeldRateRegrowthTests
{
    private const double Interval = 0.1;
    private const double Held = 10;
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void WhileTheResourceIsBusy_SigmaGrowsByTheLimitOnly()
    {
        var rate = Step(On(), current: Held, arrivals: 50, load: 8.5);

        // 10 × 1.02^0.1 + 1/s × 0.1 s.
        Assert.Equal((Held * Math.Pow(1.02, Interval)) + (1 * Interval), rate, 9);
    }

    [Fact]
    public void OnceTheResourceIsIdle_SigmaRampsAtItsOwnPace()
    {
        var limited = Step(On(), current: Held, arrivals: 50, load: 2);
        var unlimited = Step(new BottleneckFairnessOptions { HeldRateRegrowth = null }, current: Held, arrivals: 50, load: 2);

        Assert.True(unlimited > Held + 5, $"the ramp alone raises σ by at least β: {unlimited}");
        Assert.Equal(unlimited, limited);
    }

    [Fact]
    public void WorkflowOfferingNoMoreThanItsRate_IsNotHeld()
    {
        var limited = Step(On(), current: Held, arrivals: 8, load: 8.5);
        var unlimited = Step(new BottleneckFairnessOptions { HeldRateRegrowth = null }, current: Held, arrivals: 8, load: 8.5);

        Assert.Equal(unlimited, limited);
    }

    [Fact]
    public void CutFromDownstream_GrowsByTheLimit_ThoughNothingHereIsBusy()
    {
        var policy = new BottleneckFairnessPolicy(new BottleneckFairnessOptions { HeldRateRegrowth = new() { RelativePerSecond = 0, AdditivePerSecond = 20 } });
        // σ′ cuts the workflow from +∞ to 10/s; then the downstream releases it while it still offers 50/s.
        var first = Step(policy, current: double.PositiveInfinity, arrivals: 50, load: 2, downstream: Held);
        var rates = new List<double>();
        var current = Math.Min(first, Held);
        for (var i = 0; i < 3; i++)
        {
            current = Step(policy, current, arrivals: 50, load: 2);
            rates.Add(Math.Round(current, 9));
        }

        Assert.Equal([Held + 2, Held + 4, Held + 6], rates);
    }

    [Fact]
    public void OffByDefault_AndAsWritten()
    {
        Assert.Null(new BottleneckFairnessOptions().HeldRateRegrowth);
        Assert.Null(BottleneckFairnessOptions.AsWritten().HeldRateRegrowth);
    }

    [Fact]
    public void OptionsChangedAfterTheFactoryIsMade_DoNotReachItsPolicies()
    {
        var options = On();
        var factory = BottleneckFairnessPolicy.CreateFactory(options);
        options.HeldRateRegrowth!.AdditivePerSecond = 1000;

        var rate = Step((BottleneckFairnessPolicy)factory.Create(new RateLimitPolicyContext(_registry, TimeSpan.FromSeconds(Interval))), current: Held, arrivals: 50, load: 8.5);

        Assert.Equal((Held * Math.Pow(1.02, Interval)) + (1 * Interval), rate, 9);
    }

    [Theory]
    [InlineData(-0.1, 1, 0.8, "HeldRateRegrowth.RelativePerSecond")]
    [InlineData(double.NaN, 1, 0.8, "HeldRateRegrowth.RelativePerSecond")]
    [InlineData(0.02, -1, 0.8, "HeldRateRegrowth.AdditivePerSecond")]
    [InlineData(0, 0, 0.8, "HeldRateRegrowth.AdditivePerSecond")]
    [InlineData(0.02, 1, 0, "HeldRateRegrowth.BusyFraction")]
    [InlineData(0.02, 1, 5, "HeldRateRegrowth.BusyFraction")]
    public void CreateFactory_BadRegrowth_NamesTheSetting(double relative, double additive, double busy, string parameter)
    {
        var options = new BottleneckFairnessOptions { HeldRateRegrowth = new() { RelativePerSecond = relative, AdditivePerSecond = additive, BusyFraction = busy } };

        var error = Assert.ThrowsAny<ArgumentException>(() => BottleneckFairnessPolicy.CreateFactory(options));

        Assert.Equal(parameter, error.ParamName);
    }

    private static BottleneckFairnessOptions On() => new() { HeldRateRegrowth = new HeldRateRegrowthOptions() };

    private double Step(BottleneckFairnessOptions options, double current, double arrivals, double load) =>
        Step(new BottleneckFairnessPolicy(options), current, arrivals, load);

    /// <summary>One interval: the workflow's demand is <paramref name="load"/> permits of the 10, none waiting.</summary>
    private double Step(BottleneckFairnessPolicy policy, double current, double arrivals, double load, double downstream = double.PositiveInfinity)
    {
        var inputs = LocalRateInputs.Create(
            Interval,
            [new WorkflowRateInputs(_registry.Resolve("w"), current, downstream, arrivals, Math.Min(arrivals, current))],
            [new ResourceRateInputs("disk", 10, load) { TotalDemand = load, MeanServiceTime = 0.01 }],
            [load],
            [load]);
        double[] rates = [double.PositiveInfinity];
        policy.ComputeLocalRates(inputs, rates, 0);
        return rates[0];
    }
}
