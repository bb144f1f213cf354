// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Threading.RateLimiting;
using Cicero.Grpc.Context;
using Cicero.RateLimiting;
using Cicero.Runtime;
using Cicero.Workflows;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.RateLimiting;

/// <summary>
/// An ASP.NET Core rate-limiting policy over Cicero admission: the request's workflow comes from a classifier, each
/// workflow is one partition (bounded by the workflow registry), and a refusal answers with a status code, a
/// <c>Retry-After</c> header when waiting helps, and Cicero's drop-reason header.
/// </summary>
internal sealed class CiceroRateLimiterPolicy(Func<HttpContext, WorkflowId> classify, int rejectionStatusCode)
    : IRateLimiterPolicy<CiceroRateLimiterPolicy.PartitionKey>
{
    private AdmissionPartitionedRateLimiter<HttpContext>? _limiter;

    public Func<OnRejectedContext, CancellationToken, ValueTask>? OnRejected => Reject;

    public RateLimitPartition<PartitionKey> GetPartition(HttpContext httpContext)
    {
        var limiter = _limiter ??= CreateLimiter(httpContext.RequestServices);
        var slot = limiter.Admission.Registry.Resolve(classify(httpContext));
        return RateLimitPartition.Get(new PartitionKey(limiter, slot), static key => key.Limiter.ForSlot(key.Slot));
    }

    private AdmissionPartitionedRateLimiter<HttpContext> CreateLimiter(IServiceProvider services)
    {
        var runtime = services.GetService<CiceroRuntime>()
            ?? throw new InvalidOperationException(
                "AddCiceroPolicy needs Cicero's runtime in the container: call services.AddCicero(...) as well.");
        return new AdmissionPartitionedRateLimiter<HttpContext>(runtime.Admission, classify);
    }

    private ValueTask Reject(OnRejectedContext context, CancellationToken cancellationToken)
    {
        var response = context.HttpContext.Response;
        response.StatusCode = rejectionStatusCode;
        if (context.Lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter))
        {
            response.Headers.RetryAfter = Math.Max(1, (long)Math.Ceiling(retryAfter.TotalSeconds)).ToString(CultureInfo.InvariantCulture);
        }

        if (context.Lease.TryGetMetadata(AdmissionMetadataNames.DropReason, out var reason) && reason != DropReason.None)
        {
            response.Headers[CiceroMetadataKeys.DropReason] = DropReasonNames.ToWire(reason);
        }

        return ValueTask.CompletedTask;
    }

    /// <summary>A partition: one workflow slot of one admission controller.</summary>
    internal readonly record struct PartitionKey(AdmissionPartitionedRateLimiter<HttpContext> Limiter, WorkflowSlot Slot);
}
