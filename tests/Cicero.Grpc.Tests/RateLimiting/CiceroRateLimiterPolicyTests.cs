// SPDX-License-Identifier: Apache-2.0

using System.Net;
using Cicero.Admission;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Runtime;
using Cicero.Time;
using Cicero.Workflows;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Tests.RateLimiting;

/// <summary>ASP.NET Core's rate-limiting middleware on a real Kestrel HTTP endpoint, with Cicero's policy.</summary>
public class CiceroRateLimiterPolicyTests
{
    [Fact]
    public async Task Middleware_ShedsTheFloodingTenant_WhileTheCompliantTenantPasses()
    {
        // A virtual clock: no token accrues during the test, so the counts are exact.
        var clock = new VirtualTimeProvider();
        var logs = new CollectingLoggerProvider();
        await using var app = await StartAsync(clock, logs);
        var admission = app.Services.GetRequiredService<CiceroRuntime>().Admission;
        foreach (var tenant in new[] { "flood", "steady" })
        {
            admission.Configure(tenant, new RateLimiterProperties(5, Burst: 5, QueueLimit: 0));
        }

        using var client = new HttpClient { BaseAddress = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()) };
        var flood = new List<HttpResponseMessage>();
        var steady = new List<HttpResponseMessage>();
        for (var i = 0; i < 40; i++)
        {
            flood.Add(await SendAsync(client, "flood"));
            if (i % 8 == 7)
            {
                steady.Add(await SendAsync(client, "steady"));
            }
        }

        Assert.All(steady, r => Assert.Equal(HttpStatusCode.OK, r.StatusCode));
        Assert.Equal(5, steady.Count);
        Assert.Equal(5, flood.Count(r => r.StatusCode == HttpStatusCode.OK));
        var refused = flood.Where(r => r.StatusCode != HttpStatusCode.OK).ToList();
        Assert.Equal(35, refused.Count);
        Assert.All(refused, r =>
        {
            Assert.Equal(HttpStatusCode.TooManyRequests, r.StatusCode);
            Assert.Equal("1", r.Headers.GetValues("Retry-After").Single());
            Assert.Equal("rate_limited", r.Headers.GetValues(CiceroMetadataKeys.DropReason).Single());
        });

        // HTTP endpoints admitted through Cicero's policy: no "nothing is intercepted" warning at start-up.
        Assert.DoesNotContain(logs.Entries, e => e.Event.Id == 101);

        // Requests without a tenant fall into the overflow workflow rather than failing the classifier.
        Assert.Equal(HttpStatusCode.OK, (await SendAsync(client, null)).StatusCode);
        flood.Concat(steady).ToList().ForEach(r => r.Dispose());
    }

    [Fact]
    public async Task Middleware_UnderTheDefaults_RefusesAFloodAtOnce_QueueingOnlyAboutOneSecondOfIt()
    {
        // The defaults: a queue of 128 and a burst of 100 ms. At σ = 5/s, queueing 128 would hold a request 25.6 s.
        var clock = new VirtualTimeProvider();
        await using var app = await StartAsync(clock, new CollectingLoggerProvider());
        var admission = app.Services.GetRequiredService<CiceroRuntime>().Admission;
        admission.SetRate(new WorkflowId("flood"), 5);
        using var client = new HttpClient { BaseAddress = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()) };

        var flood = Enumerable.Range(0, 40).Select(_ => SendAsync(client, "flood")).ToList();

        // No virtual time passes: the refusals come at once. One request takes the burst's token, five wait (the
        // queue ahead drained at σ within one second), the other 34 are refused.
        var pending = flood.ToList();
        var answered = new List<HttpResponseMessage>();
        using (var limit = new CancellationTokenSource(TimeSpan.FromSeconds(60)))
        {
            while (answered.Count < 35)
            {
                var done = await Task.WhenAny(pending).WaitAsync(limit.Token);
                pending.Remove(done);
                answered.Add(await done);
            }
        }

        Assert.Equal(5, admission.GetQueueLength(new WorkflowId("flood")));
        Assert.Equal(1, answered.Count(r => r.StatusCode == HttpStatusCode.OK));
        var refused = answered.Where(r => r.StatusCode != HttpStatusCode.OK).ToList();
        Assert.Equal(34, refused.Count);
        Assert.All(refused, r =>
        {
            Assert.Equal(HttpStatusCode.TooManyRequests, r.StatusCode);
            Assert.Equal("2", r.Headers.GetValues("Retry-After").Single());
            Assert.Equal("rate_limited", r.Headers.GetValues(CiceroMetadataKeys.DropReason).Single());
        });

        // The five queued are admitted at σ within the second.
        clock.Advance(TimeSpan.FromSeconds(1));
        var late = await Task.WhenAll(pending).WaitAsync(TimeSpan.FromSeconds(60));
        Assert.All(late, r => Assert.Equal(HttpStatusCode.OK, r.StatusCode));
        answered.Concat(late).ToList().ForEach(r => r.Dispose());
    }

    [Fact]
    public async Task Middleware_WithoutAddCicero_FailsWithAClearMessage()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0));
        builder.Services.AddRateLimiter(o => o.AddCiceroPolicy("tenants", _ => new WorkflowId("t")));
        await using var app = builder.Build();
        app.UseRateLimiter();
        app.MapGet("/work", () => "done").RequireRateLimiting("tenants");
        await app.StartAsync();
        using var client = new HttpClient { BaseAddress = new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()) };

        using var response = await client.GetAsync(new Uri("/work", UriKind.Relative));

        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
    }

    [Fact]
    public void AddCiceroPolicy_BadArguments_Throw()
    {
        var options = new RateLimiterOptions();
        Assert.Throws<ArgumentOutOfRangeException>(() => options.AddCiceroPolicy("p", _ => default, rejectionStatusCode: 200));
        Assert.Throws<ArgumentNullException>(() => options.AddCiceroPolicy("p", null!));
        Assert.Throws<ArgumentException>(() => options.AddCiceroPolicy(" ", _ => default));
    }

    private static async Task<WebApplication> StartAsync(TimeProvider clock, ILoggerProvider logs)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(logs);
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0));
        builder.Services.AddSingleton(clock);
        builder.Services.AddCicero(o =>
        {
            o.ServiceName = "web";
            o.RateExchange.RunControlLoop = false;
        });
        builder.Services.AddRateLimiter(o => o.AddCiceroPolicy(
            "tenants",
            http => WorkflowId.TryCreate(http.Request.Headers["x-tenant"].ToString(), out var id, out _) ? id : default));
        var app = builder.Build();
        app.UseRateLimiter();
        app.MapGet("/work", () => "done").RequireRateLimiting("tenants");
        await app.StartAsync();
        return app;
    }

    private static Task<HttpResponseMessage> SendAsync(HttpClient client, string? tenant)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, new Uri("/work", UriKind.Relative));
        if (tenant is not null)
        {
            request.Headers.Add("x-tenant", tenant);
        }

        return client.SendAsync(request);
    }
}
