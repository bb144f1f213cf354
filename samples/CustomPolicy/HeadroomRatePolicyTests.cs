// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;
using Cicero.Testing;

namespace CustomPolicy;

/// <summary>The conformance suite from Cicero.Testing, plus the policy's own rule on hand-built inputs.</summary>
public class HeadroomRatePolicyTests : RateLimitPolicyConformanceTests
{
    protected override string ExpectedName => HeadroomRatePolicy.Name;

    [Fact]
    public void ComputeLocalRates_OverTheTarget_ScalesAdmittedRatesDown()
    {
        var builder = new RateInputsBuilder()
            .Resource("cpu", 10)
            .Workflow("a", current: 100, admitted: 90, loads: 6)
            .Workflow("b", current: 100, admitted: 30, loads: 3);

        var rates = RateInputsBuilder.Run(CreatePolicy(builder.Registry), builder.Build());

        // 90% busy against a 60% target: two thirds of the admitted rates.
        Assert.Equal(60, rates[0], 9);
        Assert.Equal(20, rates[1], 9);
    }

    [Fact]
    public void ComputeLocalRates_UnderTheTarget_NoLocalLimit()
    {
        var builder = new RateInputsBuilder().Resource("cpu", 10).Workflow("a", current: 100, admitted: 90, loads: 5);

        Assert.Equal([double.PositiveInfinity], RateInputsBuilder.Run(CreatePolicy(builder.Registry), builder.Build()));
    }

    protected override RateLimitPolicyFactory CreateFactory() => HeadroomRatePolicy.CreateFactory(0.6);
}
