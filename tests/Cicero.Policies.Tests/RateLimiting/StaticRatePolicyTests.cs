// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

public class StaticRatePolicyTests
{
    private static readonly RateLimitPolicyContext Context = new(new WorkflowRegistry(), TimeSpan.FromMilliseconds(100));

    [Fact]
    public void ComputeLocalRates_ConfiguredAndUnlisted_UsesRateOrDefault()
    {
        var options = new StaticRateOptions { DefaultRate = 7 };
        options.Rates["gold"] = 100;
        options.Rates["blocked"] = 0;
        var inputs = new RateInputsBuilder().Resource("cpu", 1)
            .Workflow("gold", current: 5, arrival: 500, loads: [5])
            .Workflow("blocked", current: 5, loads: [0])
            .Workflow("other", current: double.PositiveInfinity, downstream: 3, loads: [0])
            .Build();

        var rates = RateInputsBuilder.Run(new StaticRatePolicy(options), inputs);

        // Load, demand and σ′ do not matter; the controller takes min(σ^local, σ′) afterwards.
        Assert.Equal([100.0, 0.0, 7.0], rates);
    }

    [Fact]
    public void ComputeLocalRates_Defaults_NoLimit()
    {
        var inputs = new RateInputsBuilder().Workflow("a", current: 5).Build();

        Assert.Equal([double.PositiveInfinity], RateInputsBuilder.Run(new StaticRatePolicy(), inputs));
    }

    [Fact]
    public void ComputeLocalRates_WorkflowIdCaseDiffers_UsesDefault()
    {
        var options = new StaticRateOptions { DefaultRate = 1 };
        options.Rates["Gold"] = 100;

        var rates = RateInputsBuilder.Run(new StaticRatePolicy(options), new RateInputsBuilder().Workflow("gold", current: 5).Build());

        Assert.Equal([1.0], rates);
    }

    [Fact]
    public void CreateFactory_OptionsEditedAfterwards_KeepsSnapshot()
    {
        var options = new StaticRateOptions();
        options.Rates["a"] = 10;
        var factory = StaticRatePolicy.CreateFactory(options);
        options.Rates["a"] = 99;

        var rates = RateInputsBuilder.Run(factory.Create(Context), new RateInputsBuilder().Workflow("a", current: 5).Build());

        Assert.Equal(RateLimitPolicies.Static, factory.Name);
        Assert.Equal([10.0], rates);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(double.NaN)]
    public void CreateFactory_InvalidDefaultRate_Throws(double value)
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => StaticRatePolicy.CreateFactory(new StaticRateOptions { DefaultRate = value }));

        Assert.Equal(nameof(StaticRateOptions.DefaultRate), error.ParamName);
    }

    [Fact]
    public void CreateFactory_NegativeWorkflowRate_Throws()
    {
        var options = new StaticRateOptions();
        options.Rates["a"] = -5;

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => StaticRatePolicy.CreateFactory(options));

        Assert.Equal(nameof(StaticRateOptions.Rates), error.ParamName);
        Assert.Contains("'a'", error.Message, StringComparison.Ordinal);
    }
}
