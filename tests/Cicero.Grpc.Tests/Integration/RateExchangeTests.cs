// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.Grpc.Context;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using Cicero.Time;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using RateExchangeProtocol = Cicero.Grpc.RateExchange.Protocol;

namespace Cicero.Grpc.Tests.Integration;

/// <summary>
/// Rate exchange over real servers: the generated service answers, a shared token guards it, and a downstream without
/// Cicero (UNIMPLEMENTED) is reported as not taking part, logged once and left alone for the retry interval. The
/// end-to-end control loop (entry rate = leaf capacity / amplification) is an acceptance test of
/// Cicero.Grpc.Interop.Tests.
/// </summary>
public sealed class RateExchangeTests
{
    private const string Tenant = "tenant-a";

    [Fact]
    public async Task Generated_service_answers_with_the_instance_and_the_rates_it_grants()
    {
        await using var leaf = await TestHost.StartProbeAsync(
            o =>
            {
                o.Classifier = WorkflowClassifiers.Fixed(Tenant);

                // The asking caller is a peer in the mesh (an outsider is told no instance id: RateExchangeProtectionTests).
                o.IsTrustedCaller = _ => true;
            },
            cicero: c => c
                .ConfigurePolicies(p => p.ReplaceRateLimitPolicy(StaticRatePolicy.CreateFactory(new StaticRateOptions { DefaultRate = 100 })))
                .UseRateLimitPolicy(RateLimitPolicies.Static),
            map: app => app.MapCiceroRateExchange());
        using var channel = leaf.CreateChannel();
        await TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"));
        await leaf.Services.GetRequiredService<CiceroRuntime>().RateAdaptation.RunOnceAsync();
        var client = new RateExchangeProtocol.RateExchange.RateExchangeClient(channel);

        var answer = await client.GetAdmissionRatesAsync(new RateExchangeProtocol.GetAdmissionRatesRequest { Caller = "http://127.0.0.1:9" });

        Assert.Equal(InstanceIds.FromAddress(leaf.Address), answer.Instance);
        var rate = Assert.Single(answer.Rates, r => r.Workflow == Tenant);
        Assert.True(rate.HasRate);
        Assert.InRange(rate.Rate, 1e-9, 100);
        var empty = await Assert.ThrowsAsync<RpcException>(async () => await client.GetAdmissionRatesAsync(new RateExchangeProtocol.GetAdmissionRatesRequest()));
        Assert.Equal(StatusCode.InvalidArgument, empty.StatusCode);
    }

    [Fact]
    public async Task Endpoint_with_a_shared_token_refuses_callers_without_it()
    {
        await using var host = await TestHost.StartProbeAsync(o => o.RateExchange.SharedToken = "s3cret", map: app => app.MapCiceroRateExchange());
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

    [Fact]
    public async Task Downstream_without_Cicero_is_unsupported_logged_once_and_asked_again_only_after_the_retry_interval()
    {
        // A plain grpc-dotnet service: it answers UNIMPLEMENTED to rate exchange. The middleware counts the queries.
        var queries = 0;
        await using var plain = await TestHost.StartAsync(
            s =>
            {
                s.AddGrpc();
                s.AddSingleton(new ProbeHandlers());
            },
            app =>
            {
                app.Use((HttpContext http, RequestDelegate next) =>
                {
                    if (http.Request.Path.StartsWithSegments("/cicero.v1.RateExchange", StringComparison.Ordinal))
                    {
                        Interlocked.Increment(ref queries);
                    }

                    return next(http);
                });
                app.MapGrpcService<ProbeService>();
            });
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromHours(1));
        var logs = new CollectingLoggerProvider();
        await using var caller = await TestHost.StartProbeAsync(
            o => o.IsEntryPoint = false,
            cicero: c => c.AddDownstream("plain", [plain.Address.ToString()], "round_robin"),
            services: s =>
            {
                s.AddSingleton<TimeProvider>(clock);
                s.AddSingleton<ILoggerProvider>(logs);
            });
        var rates = caller.Services.GetRequiredService<CiceroRuntime>().RateAdaptation;
        Assert.Equal([InstanceIds.FromAddress(plain.Address)], rates.GetDownstreamInstances().Select(i => i.Instance));

        for (var round = 0; round < 5; round++)
        {
            await rates.RunOnceAsync();
            clock.Advance(TimeSpan.FromSeconds(10));
        }

        Assert.Equal(DownstreamStatus.Unsupported, rates.GetDownstreamStatus("plain"));
        Assert.Equal(1, Volatile.Read(ref queries));

        // Past the retry interval it is asked once more; still without rate exchange, it is not logged again.
        clock.Advance(GrpcDownstreamRateSource.UnsupportedRetryInterval);
        await rates.RunOnceAsync();
        await rates.RunOnceAsync();

        Assert.Equal(2, Volatile.Read(ref queries));
        Assert.Equal(DownstreamStatus.Unsupported, rates.GetDownstreamStatus("plain"));
        var warning = Assert.Single(logs.Entries, e => e.Category == typeof(GrpcDownstreamRateSource).FullName);
        Assert.Equal(LogLevel.Warning, warning.Level);
        Assert.Contains("UNIMPLEMENTED", warning.Message, StringComparison.Ordinal);
        Assert.Contains("'plain'", warning.Message, StringComparison.Ordinal);
    }
}
