// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Policies.Registration;
using Cicero.Runtime;
using Grpc.AspNetCore.Server;
using Grpc.Core;
using Grpc.Net.Client.Balancer;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Cicero.Grpc.Tests.Hosting;

public sealed class AddCiceroTests
{
    [Fact]
    public void AddCicero_Twice_RegistersOneGlobalInterceptor_AndAppliesBothConfigurations()
    {
        var services = new ServiceCollection();
        services.AddCicero(o => o.ServiceName = "svc");
        services.AddCicero(o => o.MaxContextHeaderBytes = 300);

        using var provider = services.BuildServiceProvider();

        var interceptors = provider.GetRequiredService<IOptions<GrpcServiceOptions>>().Value.Interceptors;
        Assert.Single(interceptors, i => i.Type == typeof(CiceroServerInterceptor));
        var options = provider.GetRequiredService<CiceroGrpcOptions>();
        Assert.Equal("svc", options.ServiceName);
        Assert.Equal(300, options.MaxContextHeaderBytes);
        Assert.Single(provider.GetServices<ResolverFactory>(), r => r.Name == "cicero");
    }

    [Fact]
    public async Task AddCicero_Twice_OnARealServer_AdmitsAndReportsEachCallOnce()
    {
        await using var host = await TestHost.StartProbeAsync(
            o => o.IsEntryPoint = false,
            services: s => s.AddCicero(o => o.ServiceName = "probe"));
        using var channel = host.CreateChannel();

        var call = TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"));
        await call;

        // Twice in the pipeline, the call would carry two result trailers and count twice in the model.
        Assert.Single(call.GetTrailers(), e => e.Key == CiceroMetadataKeys.Result);
        Assert.Equal(0, host.Services.GetRequiredService<CiceroServerInterceptor>().InFlight);
    }

    [Fact]
    public void LoadBalancingPolicies_OnePerReplicaSelector_NotDoubledByASecondRegistration()
    {
        var services = new ServiceCollection();
        services.AddCicero(o => o.ServiceName = "svc");
        services.AddCiceroLoadBalancing();
        services.AddCiceroLoadBalancing();

        using var provider = services.BuildServiceProvider();

        var names = provider.GetServices<LoadBalancerFactory>().Select(f => f.Name).ToList();
        Assert.Equal(names.Count, names.Distinct(StringComparer.Ordinal).Count());
        Assert.Equal(PolicyCatalog.Default.ReplicaSelectorNames.Order(StringComparer.Ordinal), names.Order(StringComparer.Ordinal));
        Assert.Contains("c3", names);
    }

    [Fact]
    public void ConfigurePolicies_ACustomReplicaSelector_BecomesALoadBalancingPolicy()
    {
        var services = new ServiceCollection();
        services.AddCicero(o => o.ServiceName = "svc")
            .ConfigurePolicies(p => p.AddReplicaSelector(new NamedSelectorFactory("mine")));

        using var provider = services.BuildServiceProvider();

        Assert.Single(provider.GetServices<LoadBalancerFactory>(), f => f.Name == "mine");
    }

    [Fact]
    public async Task InstanceId_WhenNotConfigured_IsTheServersLoopbackAddress_AndTravelsInTheTrailer()
    {
        await using var host = await TestHost.StartProbeAsync(o => o.IsEntryPoint = false);
        using var channel = host.CreateChannel();

        var call = TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"));
        await call;

        var expected = InstanceIds.FromAddress(host.Address);
        Assert.StartsWith("http://127.0.0.1:", expected, StringComparison.Ordinal);
        Assert.Equal(expected, host.Services.GetRequiredService<CiceroInstance>().Id);
        Assert.True(CiceroTrailers.TryRead(call.GetTrailers(), out var result));
        Assert.Equal(expected, result.Instance);
    }

    [Fact]
    public void InstanceId_WithoutAServerOrConfiguration_SaysWhatIsMissing()
    {
        var services = new ServiceCollection();
        services.AddCicero(o => o.ServiceName = "svc");
        using var provider = services.BuildServiceProvider();

        var error = Assert.Throws<InvalidOperationException>(() => provider.GetRequiredService<CiceroInstance>().Id);

        Assert.Contains("InstanceId", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MapCiceroRateExchange_WithoutAddCicero_SaysSo()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => TestHost.StartAsync(
            s => s.AddGrpc(),
            app => app.MapCiceroRateExchange()));

        Assert.Contains("AddCicero", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AddResource_WithOptions_RefusesAWaiterPastItsDeadline()
    {
        var clock = new Cicero.Time.VirtualTimeProvider();
        var services = new ServiceCollection();
        services.AddSingleton<TimeProvider>(clock);
        services.AddCicero(o => { o.ServiceName = "svc"; o.InstanceId = "http://127.0.0.1:1"; })
            .AddResource(new CiceroResourceOptions { Name = "db", Capacity = 1, DropExpiredWaiters = true });
        await using var provider = services.BuildServiceProvider();
        var runtime = provider.GetRequiredService<CiceroRuntime>();

        var db = runtime.GetResource("db");
        var held = await db.AcquireAsync(runtime.StartRequest("t"));
        var doomed = db.AcquireAsync(runtime.StartRequest("t", TimeSpan.FromMilliseconds(1)));
        clock.Advance(TimeSpan.FromMilliseconds(20));
        held.Dispose();

        Assert.Equal(1, db.Capacity);
        Assert.Equal(Cicero.DropReason.DeadlineInfeasible, (await doomed).RejectionReason);
    }

    private sealed class NamedSelectorFactory(string name) : Cicero.ReplicaSelection.ReplicaSelectorFactory
    {
        public override string Name => name;

        public override Cicero.ReplicaSelection.IReplicaSelector Create(long timestampFrequency) =>
            PolicyCatalog.Default.GetReplicaSelector("c3").Create(timestampFrequency);
    }
}
