// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Client;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Integration;

/// <summary>entry -> middle -(x2)-> leaf with a capacity of 100/s: over real rate exchange, the entry admits 100 / 2.</summary>
public sealed class RateExchangeTests
{
    private const double LeafCapacity = 100;
    private const string Tenant = "tenant-a";
    private static readonly Method<string, string> Work = TestMethods.Unary("Work");
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Entry_rate_follows_leaf_capacity_over_amplification_and_recovers_after_a_restart()
    {
        var leaf = await StartLeafAsync(port: 0);
        var leafPort = leaf.Address.Port;
        await using var middle = await TestHost.StartAsync(
            s => s.AddCicero(o => { o.ServiceName = "middle"; o.IsEntryPoint = false; })
                .AddDownstream("leaf", [leaf.Address.ToString()], "round_robin"),
            app =>
            {
                app.MapCiceroRateExchange();
                app.MapGrpcUnary(Work, async (string request, ServerCallContext context) =>
                {
                    var invoker = app.Services.GetRequiredService<CiceroDownstreams>().GetCallInvoker("leaf");
                    await invoker.AsyncUnaryCall(Work, default, request);
                    return await invoker.AsyncUnaryCall(Work, default, request);
                });
            });
        await using var entry = await TestHost.StartAsync(
            s => s.AddCicero(o =>
            {
                o.ServiceName = "entry";
                o.Classifier = Classification.WorkflowClassifiers.Fixed(Tenant);
            }).AddDownstream("middle", [middle.Address.ToString()], "round_robin"),
            app => app.MapGrpcUnary(Work, (string request, ServerCallContext context) =>
                app.Services.GetRequiredService<CiceroDownstreams>().GetCallInvoker("middle").AsyncUnaryCall(Work, default, request).ResponseAsync));

        var entryRuntime = entry.Services.GetRequiredService<CiceroRuntime>();
        var middleRuntime = middle.Services.GetRequiredService<CiceroRuntime>();
        using var channel = RpcChannel.ForAddress(entry.Address);
        var client = channel.CreateCallInvoker();

        // Traffic until the entry's σ settles at 100 / 2 (within 10%).
        var settled = await DriveUntilAsync(client, () => IsNear(entryRuntime.RateAdaptation.GetAnnouncedRate(Tenant), LeafCapacity / 2));
        Assert.True(settled, $"entry σ = {entryRuntime.RateAdaptation.GetAnnouncedRate(Tenant)}, expected ≈ {LeafCapacity / 2}; " + Describe(entryRuntime, "middle") + " | " + Describe(middleRuntime, "leaf"));

        // The leaf goes away: the middle first holds the last answer, then says the answers expired; rates never reach 0.
        await leaf.DisposeAsync();
        var expired = await DriveUntilAsync(client, () => middleRuntime.RateAdaptation.GetDownstreamStatus("leaf") == DownstreamStatus.Expired);
        Assert.True(expired, $"middle's leaf status stayed {middleRuntime.RateAdaptation.GetDownstreamStatus("leaf")}");
        Assert.True(entryRuntime.RateAdaptation.GetAnnouncedRate(Tenant) > 0);

        // It comes back on the same address: the rate returns to 100 / 2.
        leaf = await StartLeafAsync(leafPort);
        await using (leaf)
        {
            var recovered = await DriveUntilAsync(client, () =>
                middleRuntime.RateAdaptation.GetDownstreamStatus("leaf") == DownstreamStatus.Fresh &&
                IsNear(entryRuntime.RateAdaptation.GetAnnouncedRate(Tenant), LeafCapacity / 2));
            Assert.True(recovered, $"entry σ = {entryRuntime.RateAdaptation.GetAnnouncedRate(Tenant)} after the restart");
        }
    }

    [Fact]
    public async Task Endpoint_with_a_shared_token_refuses_callers_without_it()
    {
        await using var host = await TestHost.StartAsync(
            s => s.AddCicero(o => { o.ServiceName = "leaf"; o.RateExchange.SharedToken = "s3cret"; o.RateExchange.RunControlLoop = false; }),
            app => app.MapCiceroRateExchange());
        var instance = new DownstreamInstance("leaf", host.Address.ToString());

        using var anonymous = new GrpcDownstreamRateSource();
        var missing = await Assert.ThrowsAsync<RpcException>(async () => await anonymous.GetAdmissionRatesAsync(instance, "caller", CancellationToken.None));
        Assert.Equal(StatusCode.Unauthenticated, missing.StatusCode);

        using var wrong = new GrpcDownstreamRateSource("guess");
        var denied = await Assert.ThrowsAsync<RpcException>(async () => await wrong.GetAdmissionRatesAsync(instance, "caller", CancellationToken.None));
        Assert.Equal(StatusCode.PermissionDenied, denied.StatusCode);

        using var trusted = new GrpcDownstreamRateSource("s3cret");
        var answer = await trusted.GetAdmissionRatesAsync(instance, "caller", CancellationToken.None);
        Assert.NotNull(answer);
    }

    private static Task<TestHost> StartLeafAsync(int port) => TestHost.StartAsync(
        s => s.AddCicero(o => { o.ServiceName = "leaf"; o.IsEntryPoint = false; })
            .ConfigurePolicies(p => p.ReplaceRateLimitPolicy(StaticRatePolicy.CreateFactory(new StaticRateOptions { DefaultRate = LeafCapacity })))
            .UseRateLimitPolicy(RateLimitPolicies.Static),
        app =>
        {
            app.MapCiceroRateExchange();
            app.MapGrpcUnary(Work, (string request, ServerCallContext context) => Task.FromResult(request));
        },
        port);

    private static string Describe(CiceroRuntime runtime, string downstream)
    {
        var ra = runtime.RateAdaptation;
        runtime.Model.Get(Tenant).TryGetAmplification(downstream, out var alpha);
        return $"σ={ra.GetAnnouncedRate(Tenant)} σ'={ra.GetDownstreamRate(Tenant)} status={ra.GetDownstreamStatus(downstream)} steps={ra.Steps} " +
            $"α={alpha} id={ra.Options.ProcessId} instances=[{string.Join(",", ra.GetDownstreamInstances())}] error={ra.LastError?.Message}";
    }

    private static bool IsNear(double value, double expected) => Math.Abs(value - expected) <= expected * 0.1;

    /// <summary>Sends requests one at a time until the condition holds, or gives up after a bounded time.</summary>
    private static async Task<bool> DriveUntilAsync(CallInvoker client, Func<bool> condition)
    {
        var giveUp = TimeProvider.System.GetTimestamp() + (long)(Patience.TotalSeconds * TimeProvider.System.TimestampFrequency);
        var stableSince = 0;
        for (var i = 0; i < 100_000 && TimeProvider.System.GetTimestamp() < giveUp; i++)
        {
            try
            {
                await client.AsyncUnaryCall(Work, new CallOptions(Deadline: TimeProvider.System.GetUtcNow().AddSeconds(2)), "x");
            }
            catch (RpcException)
            {
                // Drops and outages are part of the scenario; only the rates are asserted.
                await Task.Yield();
            }

            // The condition must hold for a few consecutive requests, not just pass through the band once.
            stableSince = condition() ? stableSince + 1 : 0;
            if (stableSince >= 20)
            {
                return true;
            }
        }

        return false;
    }
}
