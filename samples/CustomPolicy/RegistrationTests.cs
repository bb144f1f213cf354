// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Registration;
using Cicero.Resources;
using Cicero.Runtime;
using Cicero.Time;

namespace CustomPolicy;

/// <summary>Both policies registered by name and run in a Cicero runtime on a virtual clock, as a service would.</summary>
public class RegistrationTests
{
    [Fact]
    public async Task Catalog_ResolvesTheCustomPolicies_AndTheRuntimeServesGoldFirst()
    {
        var catalog = PolicyCatalogBuilder.CreateDefault()
            .AddScheduler(GoldFirstScheduler.CreateFactory(new HashSet<string> { "gold" }))
            .AddRateLimitPolicy(HeadroomRatePolicy.CreateFactory(0.8))
            .Build();
        var clock = new VirtualTimeProvider();
        using var runtime = new CiceroRuntimeBuilder
            {
                TimeProvider = clock,
                RateLimitPolicy = catalog.GetRateLimitPolicy(HeadroomRatePolicy.Name).Create,
            }
            .AddResource(new ResourceSemaphoreOptions { Name = "db", Capacity = 1, RunContinuationsAsynchronously = false }, catalog.GetScheduler(GoldFirstScheduler.Name).Create)
            .Build();
        var db = runtime.GetResource("db");

        var held = await db.AcquireAsync(runtime.StartRequest("bronze"));
        var order = new List<string>();
        var bronze = UseAsync(db, runtime.StartRequest("bronze"), order);
        var gold = UseAsync(db, runtime.StartRequest("gold"), order);
        held.Dispose();
        await Task.WhenAll(bronze, gold);

        Assert.Equal(["gold", "bronze"], order);
        Assert.Contains("gold-first", Assert.Throws<ArgumentException>(() => catalog.GetScheduler("gold-frist")).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void CustomPolicies_RegisterBothByName_AsATool_LoadsThem()
    {
        var builder = PolicyCatalogBuilder.CreateDefault();

        new CustomPolicies().Register(builder);
        var catalog = builder.Build();

        Assert.Contains(GoldFirstScheduler.Name, catalog.SchedulerNames);
        Assert.Contains(HeadroomRatePolicy.Name, catalog.RateLimitPolicyNames);
        Assert.Throws<ArgumentException>(() => new CustomPolicies().Register(PolicyCatalogBuilder.From(catalog)));
    }

    private static async Task UseAsync(ResourceSemaphore resource, RequestContext context, List<string> order)
    {
        using var lease = await resource.AcquireAsync(context);
        order.Add(context.Workflow.Value);
    }
}
