// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Registration;
using Cicero.RateAdaptation;
using Cicero.Resources;
using Cicero.Runtime;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.CustomPolicies;

/// <summary>The examples of docs/custom-policies.md, registered and run as an operator would.</summary>
public class CustomPoliciesTests
{
    private readonly VirtualTimeProvider _clock = new();

    [Fact]
    public async Task CustomScheduler_RegisteredByName_ServesOldestRequestFirst()
    {
        var catalog = PolicyCatalogBuilder.CreateDefault().AddScheduler(OldestRequestFirstScheduler.Factory).Build();
        using var runtime = new CiceroRuntime(null, _clock);
        var scheduler = catalog.GetScheduler("oldest-first").Create(new SubtaskSchedulerContext("db", 1, _clock.TimestampFrequency, runtime.Registry));
        var db = runtime.AddResource(new ResourceSemaphoreOptions { Name = "db", Capacity = 1, RunContinuationsAsynchronously = false }, scheduler);
        var old = RequestContext.Start("a", _clock);
        _clock.Advance(TimeSpan.FromMilliseconds(10));
        var order = new List<string>();

        var held = await db.AcquireAsync(RequestContext.Start("holder", _clock));
        var young = Use(db, RequestContext.Start("b", _clock), "young", order);
        var older = Use(db, old, "old", order);
        held.Dispose();
        await Task.WhenAll(young, older);

        Assert.Equal(["old", "young"], order);
    }

    [Fact]
    public void CustomRatePolicy_HoldsAdmittedRate_WhenSpareCapacityIsLow()
    {
        var factory = SpareCapacityCapPolicy.CreateFactory(minimumSpare: 0.2);
        var policy = factory.Create(new RateLimitPolicyContext(new WorkflowRegistry(), TimeSpan.FromMilliseconds(100)));
        var registry = new WorkflowRegistry();
        var inputs = LocalRateInputs.Create(
            0.1,
            [new WorkflowRateInputs(registry.Resolve("a"), 100, double.PositiveInfinity, 120, 80)],
            [new ResourceRateInputs("cpu", 4, 3.6)],
            [3.6]);
        Span<double> rates = [0];

        policy.ComputeLocalRates(inputs, rates, 0);

        Assert.Equal("spare-capacity-cap", factory.Name);
        Assert.Equal(80, rates[0]);
    }

    private static async Task Use(ResourceSemaphore resource, RequestContext context, string name, List<string> order)
    {
        using var lease = await resource.AcquireAsync(context);
        order.Add(name);
    }
}
