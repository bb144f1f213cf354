// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.Policies.Registration;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.Conformance;

/// <summary>A policy registered through <see cref="DelegateRateLimitPolicyFactory"/>, held to the conformance suite.</summary>
public class DelegateRateLimitPolicyFactoryTests : RateLimitPolicyConformanceTests
{
    protected override string ExpectedName => "half-of-arrivals";

    [Fact]
    public void Create_PassesTheProcessContext_AndIsFoundInTheCatalogByName()
    {
        RateLimitPolicyContext? seen = null;
        var factory = new DelegateRateLimitPolicyFactory("spy", context =>
        {
            seen = context;
            return PassThroughRateLimitPolicy.Instance;
        });
        var catalog = PolicyCatalogBuilder.CreateDefault().AddRateLimitPolicy(factory).Build();
        var context = new RateLimitPolicyContext(new WorkflowRegistry(), TimeSpan.FromMilliseconds(250));

        Assert.Same(PassThroughRateLimitPolicy.Instance, catalog.GetRateLimitPolicy("spy").Create(context));
        Assert.Same(context, seen);
    }

    [Fact]
    public void Constructor_BadArguments_Throw()
    {
        Assert.Throws<ArgumentException>(() => new DelegateRateLimitPolicyFactory(" ", _ => PassThroughRateLimitPolicy.Instance));
        Assert.Throws<ArgumentNullException>(() => new DelegateRateLimitPolicyFactory("x", null!));
        var returnsNull = new DelegateRateLimitPolicyFactory("null", _ => null!);
        Assert.Throws<InvalidOperationException>(() => returnsNull.Create(new RateLimitPolicyContext(new WorkflowRegistry(), TimeSpan.FromSeconds(1))));
    }

    [Fact]
    public void HalfOfArrivals_WritesHalfTheArrivalRate()
    {
        var builder = new RateInputsBuilder().Workflow("a", current: 10, arrival: 80).Workflow("b", current: 10, arrival: 0);

        Assert.Equal([40.0, 1.0], RateInputsBuilder.Run(CreatePolicy(builder.Registry), builder.Build()));
    }

    protected override RateLimitPolicyFactory CreateFactory() => new DelegateRateLimitPolicyFactory(ExpectedName, _ => new HalfOfArrivals());

    private sealed class HalfOfArrivals : IRateLimitPolicy
    {
        public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
        {
            var workflows = inputs.Workflows;
            for (var i = 0; i < workflows.Length; i++)
            {
                localRates[i] = Math.Max(1, workflows[i].ArrivalRate / 2);
            }
        }
    }
}
