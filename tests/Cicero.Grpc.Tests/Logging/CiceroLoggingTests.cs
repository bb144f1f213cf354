// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Logging;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using Cicero.Time;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Tests.Logging;

/// <summary>What Cicero's hosting logs, read back through a collecting logger provider on real Kestrel hosts.</summary>
public sealed class CiceroLoggingTests
{
    private const string Tenant = "tenant-a";

    [Fact]
    public async Task StartUp_LogsTheConfiguration_AndWarnsOnlyWhenNoGrpcEndpointIsIntercepted()
    {
        var bare = new CollectingLoggerProvider { MinimumLevel = LogLevel.Information };
        await using (await TestHost.StartAsync(
            s =>
            {
                s.AddSingleton<ILoggerProvider>(bare);
                s.AddCicero(o =>
                {
                    o.ServiceName = "lonely";
                    o.RateExchange.RunControlLoop = false;
                }).AddResource("disk", 4, "edf");
            },
            app => app.MapCiceroRateExchange()))
        {
            var started = Assert.Single(bare.Entries, e => e.Event.Id == 100);
            Assert.Equal(LogLevel.Information, started.Level);
            Assert.Contains("service 'lonely'", started.Message, StringComparison.Ordinal);
            Assert.Contains("disk: 4 permits, edf, queue 1024", started.Message, StringComparison.Ordinal);
            Assert.Contains("control loop off", started.Message, StringComparison.Ordinal);
            var warning = Assert.Single(bare.Entries, e => e.Event.Id == 101);
            Assert.Equal(LogLevel.Warning, warning.Level);
            Assert.Contains("MapGrpcService", warning.Message, StringComparison.Ordinal);
        }

        var mapped = new CollectingLoggerProvider { MinimumLevel = LogLevel.Information };
        await using (await TestHost.StartProbeAsync(_ => { }, services: s => s.AddSingleton<ILoggerProvider>(mapped)))
        {
            Assert.Single(mapped.Entries, e => e.Event.Id == 100);
            Assert.DoesNotContain(mapped.Entries, e => e.Event.Id == 101);
        }
    }

    [Fact]
    public async Task RateExchange_FailureRecoveryAndStatusChanges_AreLoggedOncePerChange()
    {
        var failing = false;
        await using var storage = await TestHost.StartProbeAsync(
            o => o.Classifier = WorkflowClassifiers.Fixed(Tenant),
            map: app =>
            {
                // Stands for an instance that stops answering: its rate exchange fails with HTTP 503 (UNAVAILABLE).
                app.Use((http, next) =>
                {
                    if (Volatile.Read(ref failing))
                    {
                        http.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
                        return Task.CompletedTask;
                    }

                    return next(http);
                });
                app.MapCiceroRateExchange();
            });
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromHours(1));
        var logs = new CollectingLoggerProvider { MinimumLevel = LogLevel.Information };
        await using var caller = await TestHost.StartProbeAsync(
            o => o.IsEntryPoint = false,
            cicero: c => c.AddDownstream("storage", [storage.Address.ToString()]).UseRateLimitPolicy("static"),
            services: s =>
            {
                s.AddSingleton<TimeProvider>(clock);
                s.AddSingleton<ILoggerProvider>(logs);
            });
        var rates = caller.Services.GetRequiredService<CiceroRuntime>().RateAdaptation;
        using var monitor = new DownstreamStatusMonitor(
            rates, ["storage"], "static", caller.Services.GetRequiredService<ILoggerFactory>().CreateLogger("Cicero.Grpc.Hosting"));

        await rates.RunOnceAsync();
        monitor.Check();
        Assert.Empty(Events(logs, 200, 201, 202, 203, 204));

        Volatile.Write(ref failing, true);
        for (var i = 0; i < 3; i++)
        {
            await rates.RunOnceAsync();
        }

        var failed = Assert.Single(Events(logs, 200));
        Assert.Contains("'storage'", failed.Message, StringComparison.Ordinal);
        Assert.Contains("Unavailable", failed.Message, StringComparison.Ordinal);

        clock.Advance(TimeSpan.FromMilliseconds(300));
        monitor.Check();
        monitor.Check();
        Assert.Contains("Fresh -> Holding", Assert.Single(Events(logs, 202)).Message, StringComparison.Ordinal);

        clock.Advance(TimeSpan.FromSeconds(1));
        monitor.Check();
        var fallback = Assert.Single(Events(logs, 203));
        Assert.Contains("Holding -> Expired", fallback.Message, StringComparison.Ordinal);
        Assert.Contains("local rate-limit policy 'static'", fallback.Message, StringComparison.Ordinal);

        Volatile.Write(ref failing, false);
        await rates.RunOnceAsync();
        await rates.RunOnceAsync();
        monitor.Check();
        Assert.Contains("after 3 failed queries", Assert.Single(Events(logs, 201)).Message, StringComparison.Ordinal);
        Assert.Contains("Expired -> Fresh", Assert.Single(Events(logs, 204)).Message, StringComparison.Ordinal);
        Assert.Equal(DownstreamStatus.Fresh, rates.GetDownstreamStatus("storage"));
    }

    [Fact]
    public async Task Drops_AreLogged_AtMostOncePerSecond_WithTheSuppressedCount()
    {
        var clock = new VirtualTimeProvider();
        var logs = new CollectingLoggerProvider();
        await using var host = await TestHost.StartProbeAsync(
            o =>
            {
                o.Classifier = WorkflowClassifiers.Fixed(Tenant);
                o.QueueForAdmission = false;
            },
            services: s =>
            {
                s.AddSingleton<TimeProvider>(clock);
                s.AddSingleton<ILoggerProvider>(logs);
            });
        host.Services.GetRequiredService<CiceroRuntime>().Admission.Configure(Tenant, new RateLimiterProperties(0.001, 1, 0));
        using var channel = host.CreateChannel();
        var client = TestHost.Client(channel);

        await client.WorkAsync(ProbeHandlers.Of("admitted"));
        for (var i = 0; i < 50; i++)
        {
            var ex = await Assert.ThrowsAsync<RpcException>(async () => await client.WorkAsync(ProbeHandlers.Of("dropped")));
            Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        }

        var first = Assert.Single(Events(logs, 300));
        Assert.Contains("rate_limited", first.Message, StringComparison.Ordinal);
        Assert.Contains("0 more drops", first.Message, StringComparison.Ordinal);

        clock.Advance(TimeSpan.FromSeconds(1));
        await Assert.ThrowsAsync<RpcException>(async () => await client.WorkAsync(ProbeHandlers.Of("dropped")));
        Assert.Equal(2, Events(logs, 300).Count);
        Assert.Contains("49 more drops", Events(logs, 300)[1].Message, StringComparison.Ordinal);
    }

    private static List<(string Category, LogLevel Level, EventId Event, string Message)> Events(CollectingLoggerProvider logs, params int[] ids) =>
        [.. logs.Entries.Where(e => ids.Contains(e.Event.Id))];
}
