// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Resilience;
using Cicero.RateLimiting;
using Cicero.Time;
using Cicero.Workflows;
using Polly;
using Polly.RateLimiting;

namespace Cicero.Grpc.Tests.RateLimiting;

/// <summary>Polly's rate-limiter strategy (Polly.RateLimiting) with Cicero's limiter.</summary>
public class CiceroRateLimiterResilienceTests
{
    private readonly VirtualTimeProvider _clock = new();

    [Fact]
    public async Task Pipeline_ShedsTheFloodingTenant_WhileTheCompliantTenantPasses()
    {
        using var admission = new AdmissionController(new WorkflowRegistry(), timeProvider: _clock);
        foreach (var tenant in new[] { "flood", "steady" })
        {
            admission.Configure(tenant, new RateLimiterProperties(5, Burst: 5, QueueLimit: 0));
        }

        DropReason? seenReason = null;
        var pipeline = new ResiliencePipelineBuilder()
            .AddCiceroRateLimiter(admission, configure: o => o.OnRejected = args =>
            {
                seenReason = args.Lease.TryGetMetadata(AdmissionMetadataNames.DropReason, out var reason) ? reason : null;
                return default;
            })
            .Build();
        var ran = new Dictionary<string, int> { ["flood"] = 0, ["steady"] = 0 };
        var rejections = new List<RateLimiterRejectedException>();

        for (var i = 0; i < 40; i++)
        {
            await RunAsync("flood");
            if (i % 8 == 7)
            {
                await RunAsync("steady");
            }
        }

        Assert.Equal(5, ran["steady"]);
        Assert.Equal(5, ran["flood"]);
        Assert.Equal(35, rejections.Count);
        Assert.All(rejections, e => Assert.Equal(TimeSpan.FromMilliseconds(200), e.RetryAfter));
        Assert.Equal(DropReason.RateLimited, seenReason);

        async Task RunAsync(string tenant)
        {
            // The default classifier reads the request context Cicero's other strategies read.
            var context = ResilienceContextPool.Shared.Get();
            context.Properties.Set(CiceroResilienceKeys.RequestContext, RequestContext.Start(tenant, _clock));
            try
            {
                await pipeline.ExecuteAsync(_ => { ran[tenant]++; return default; }, context);
            }
            catch (RateLimiterRejectedException e)
            {
                rejections.Add(e);
            }
            finally
            {
                ResilienceContextPool.Shared.Return(context);
            }
        }
    }

    [Fact]
    public async Task Pipeline_WithAmbientContext_AdmitsThatWorkflow()
    {
        using var admission = new AdmissionController(new WorkflowRegistry(), timeProvider: _clock);
        admission.Configure("only-one", new RateLimiterProperties(1, Burst: 1, QueueLimit: 0));
        var pipeline = new ResiliencePipelineBuilder().AddCiceroRateLimiter(admission).Build();

        using (CiceroContext.Use(RequestContext.Start("only-one", _clock)))
        {
            await pipeline.ExecuteAsync(_ => default);
            await Assert.ThrowsAsync<RateLimiterRejectedException>(() => pipeline.ExecuteAsync(_ => default).AsTask());
        }

        // Another workflow is untouched by the first one's exhausted rate.
        using (CiceroContext.Use(RequestContext.Start("other", _clock)))
        {
            await pipeline.ExecuteAsync(_ => default);
        }
    }
}
