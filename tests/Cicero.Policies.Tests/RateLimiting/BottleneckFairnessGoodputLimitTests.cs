// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

/// <summary>
/// <see cref="BottleneckFairnessOptions.GoodputLimit"/> (docs/decisions/0011, ninth amendment) at an entry point with
/// nothing local to share: the policy alone would leave the workflow unlimited, so every finite σ here is the goodput
/// limit's. Each 100 ms interval hands the policy the outcomes its callers saw.
/// </summary>
public class BottleneckFairnessGoodputLimitTests
{
    private const double Interval = 0.1;
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void MostlyFailingForTwoSeconds_LimitsToTwiceTheSuccessRate()
    {
        var loop = new Loop(this, new BottleneckFairnessOptions());

        // 500/s offered, 100/s of it succeeding and 400/s failing downstream.
        loop.Run(intervals: 19, offered: 500, succeeded: 10, failed: 40);
        Assert.All(loop.Sigmas, s => Assert.True(double.IsPositiveInfinity(s), $"σ is {s} before 2 s of failures"));

        loop.Run(intervals: 10, offered: 500, succeeded: 10, failed: 40);

        Assert.Equal(200, loop.Sigmas[^1], 6);
    }

    [Fact]
    public void AnOverloadsOnset_ThatThinsOutWithinTwoSeconds_StartsNothing()
    {
        var loop = new Loop(this, new BottleneckFairnessOptions());

        // A flood's backlog times out for 1.5 s while the bottleneck's cut takes hold, then its requests succeed.
        loop.Run(intervals: 15, offered: 500, succeeded: 5, failed: 45);
        loop.Run(intervals: 30, offered: 500, succeeded: 50, failed: 0);

        Assert.All(loop.Sigmas, s => Assert.True(double.IsPositiveInfinity(s), $"σ is {s}"));
    }

    [Fact]
    public void FewerFailuresThanTheMinimum_AreNoEvidence()
    {
        var loop = new Loop(this, new BottleneckFairnessOptions());

        // A workflow of a few requests per second, all failing: 9 failures in any 1 s window, one short of the evidence.
        for (var i = 0; i < 50; i++)
        {
            loop.Run(intervals: 1, offered: 10, succeeded: 0, failed: i % 10 == 9 ? 0 : 1);
        }

        Assert.All(loop.Sigmas, s => Assert.True(double.IsPositiveInfinity(s), $"σ is {s}"));
    }

    [Fact]
    public void WhileFailuresPersist_TheLimitFallsAtMostByTheDecreaseLimitPerInterval()
    {
        var loop = new Loop(this, new BottleneckFairnessOptions());
        loop.Run(intervals: 25, offered: 500, succeeded: 10, failed: 40);
        Assert.Equal(200, loop.Sigmas[^1], 6);

        // Nothing succeeds any more: the limit halves each interval (MaxDecrease 0.5), down to the minimum rate of 1/s.
        loop.Run(intervals: 20, offered: 500, succeeded: 0, failed: 50);

        var limits = loop.Sigmas.Skip(24).ToList();
        for (var i = 1; i < limits.Count; i++)
        {
            Assert.InRange(limits[i], limits[i - 1] * 0.5, limits[i - 1]);
        }

        Assert.Equal(1, limits[^1]);
    }

    [Fact]
    public void OnceRequestsSucceedAgain_TheLimitGrowsBack_AndIsLifted()
    {
        var loop = new Loop(this, new BottleneckFairnessOptions());
        loop.Run(intervals: 25, offered: 500, succeeded: 10, failed: 40);
        Assert.Equal(200, loop.Sigmas[^1], 6);

        // Everything admitted succeeds now: the limit follows twice the success rate up, and once it exceeds twice what
        // the workflow offers it is lifted.
        for (var i = 0; i < 60 && double.IsFinite(loop.Sigmas[^1]); i++)
        {
            var admitted = Math.Min(500, loop.Sigmas[^1]);
            loop.Run(intervals: 1, offered: 500, succeeded: (long)(admitted * Interval), failed: 0);
        }

        Assert.True(double.IsPositiveInfinity(loop.Sigmas[^1]), $"σ is {loop.Sigmas[^1]}");
        var regrowth = loop.Sigmas.Skip(25).Where(double.IsFinite).ToList();
        Assert.All(regrowth.Zip(regrowth.Skip(1)), pair => Assert.True(pair.Second >= pair.First, $"{pair.Second} < {pair.First}"));
    }

    [Fact]
    public void IntervalsThatWobbleOrAreSkipped_CountByTime()
    {
        // The live loop steps once its downstream queries return: 60-140 ms apart, and now and then a tick skipped. The
        // window then holds however many intervals fit in a second, and the rates divide by the time they cover.
        var loop = new Loop(this, new BottleneckFairnessOptions());
        var random = new Random(7);
        for (var i = 0; i < 60; i++)
        {
            var seconds = i % 10 == 9 ? 0.2 : 0.06 + (0.08 * random.NextDouble());
            loop.Run(intervals: 1, offered: 500, succeeded: (long)Math.Round(100 * seconds), failed: (long)Math.Round(400 * seconds), seconds);
        }

        // 100/s succeed (to the rounding of each interval's count): the limit sits near 200/s, not a fraction of it.
        Assert.All(loop.Sigmas.TakeLast(20), s => Assert.InRange(s, 170, 230));
    }

    [Fact]
    public void AnIntervalOfNoTime_CountsNothing_AndKeepsTheLimit()
    {
        var loop = new Loop(this, new BottleneckFairnessOptions());
        loop.Run(intervals: 25, offered: 500, succeeded: 10, failed: 40);
        Assert.Equal(200, loop.Sigmas[^1], 6);

        // Two steps at one timestamp: the second closes an interval of 0 s (its counts are the last interval's again).
        loop.Run(intervals: 1, offered: 500, succeeded: 10, failed: 40, seconds: 0);

        Assert.Equal(200, loop.Sigmas[^1], 6);
    }

    [Fact]
    public void ManyWorkflows_EachKeepsItsOwnWindow()
    {
        // More workflows than the state's first allocation: the 40th fails, the others succeed.
        var policy = new BottleneckFairnessPolicy(new BottleneckFairnessOptions());
        var workflows = Enumerable.Range(0, 40).Select(i => _registry.Resolve($"w{i}")).ToArray();
        double[] rates = new double[workflows.Length];
        for (var step = 0; step < 25; step++)
        {
            var inputs = LocalRateInputs.Create(
                Interval,
                [.. workflows.Select((w, i) => new WorkflowRateInputs(w, rates[i], double.PositiveInfinity, 500, 500) { Succeeded = i == 39 ? 10 : 50, Failed = i == 39 ? 40 : 0 })],
                [],
                [],
                []);
            Array.Fill(rates, double.PositiveInfinity);
            policy.ComputeLocalRates(inputs, rates, 0);
        }

        Assert.Equal(200, rates[39], 6);
        Assert.All(rates.Take(39), r => Assert.True(double.IsPositiveInfinity(r), $"σ is {r}"));
    }

    [Fact]
    public void OnByDefault_OffAsWritten_AndOffWhenNull()
    {
        var defaults = new BottleneckFairnessOptions().GoodputLimit;
        Assert.NotNull(defaults);
        Assert.Equal(0.5, defaults.FailureFraction);
        Assert.Equal(10, defaults.MinimumFailures);
        Assert.Equal(TimeSpan.FromSeconds(1), defaults.Window);
        Assert.Equal(TimeSpan.FromSeconds(2), defaults.Persistence);
        Assert.Equal(2, defaults.Headroom);
        Assert.Equal(0.1, defaults.Growth);
        Assert.Null(BottleneckFairnessOptions.AsWritten().GoodputLimit);

        var off = new Loop(this, new BottleneckFairnessOptions { GoodputLimit = null });
        off.Run(intervals: 50, offered: 500, succeeded: 10, failed: 40);
        Assert.All(off.Sigmas, s => Assert.True(double.IsPositiveInfinity(s), $"σ is {s}"));
    }

    [Theory]
    [InlineData("FailureFraction")]
    [InlineData("MinimumFailures")]
    [InlineData("Window")]
    [InlineData("Persistence")]
    [InlineData("Headroom")]
    [InlineData("Growth")]
    public void CreateFactory_BadGoodputLimit_NamesTheSetting(string setting)
    {
        var limit = new GoodputLimitOptions();
        switch (setting)
        {
            case "FailureFraction": limit.FailureFraction = 1; break;
            case "MinimumFailures": limit.MinimumFailures = 0; break;
            case "Window": limit.Window = TimeSpan.Zero; break;
            case "Persistence": limit.Persistence = TimeSpan.FromSeconds(-1); break;
            case "Headroom": limit.Headroom = double.NaN; break;
            default: limit.Growth = 0; break;
        }

        var error = Assert.ThrowsAny<ArgumentException>(() => BottleneckFairnessPolicy.CreateFactory(new BottleneckFairnessOptions { GoodputLimit = limit }));

        Assert.Equal("GoodputLimit." + setting, error.ParamName);
    }

    /// <summary>One entry point's control loop for one workflow, with no local resource.</summary>
    private sealed class Loop(BottleneckFairnessGoodputLimitTests test, BottleneckFairnessOptions options)
    {
        private readonly BottleneckFairnessPolicy _policy = new(options);
        private double _sigma = double.PositiveInfinity;

        public List<double> Sigmas { get; } = [];

        public void Run(int intervals, double offered, long succeeded, long failed, double seconds = Interval)
        {
            for (var i = 0; i < intervals; i++)
            {
                var workflow = new WorkflowRateInputs(test._registry.Resolve("w"), _sigma, double.PositiveInfinity, offered, Math.Min(offered, _sigma))
                {
                    Succeeded = succeeded,
                    Failed = failed,
                };
                var inputs = LocalRateInputs.Create(seconds, [workflow], [], [], []);
                double[] rates = [double.PositiveInfinity];
                _policy.ComputeLocalRates(inputs, rates, 0);
                _sigma = rates[0];
                Sigmas.Add(_sigma);
            }
        }
    }
}
