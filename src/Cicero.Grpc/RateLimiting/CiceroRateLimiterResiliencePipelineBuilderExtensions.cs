// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Resilience;
using Cicero.RateLimiting;
using Cicero.Workflows;
using Polly.RateLimiting;

namespace Polly;

/// <summary>Adds Cicero admission as Polly's standard rate-limiter strategy (Polly.RateLimiting).</summary>
public static class CiceroRateLimiterResiliencePipelineBuilderExtensions
{
    /// <summary>
    /// Adds Polly's rate limiter (<c>AddRateLimiter</c>) over Cicero admission: each execution is admitted at its
    /// workflow's rate σ through an <see cref="AdmissionPartitionedRateLimiter{TResource}"/>. A refusal throws
    /// Polly's <see cref="RateLimiterRejectedException"/> with <see cref="RateLimiterRejectedException.RetryAfter"/>
    /// when the rate refused it, so existing Polly rejection handling applies unchanged.
    /// </summary>
    /// <remarks>
    /// Unlike <c>AddCiceroAdmission</c>, whose <c>AdmissionRejectedException</c> carries Cicero's drop reason, this is
    /// the strategy Polly users already configure and observe; the reason is in the lease metadata
    /// (<see cref="AdmissionMetadataNames.DropReason"/>) for an <c>OnRejected</c> callback set through
    /// <paramref name="configure"/>.
    /// </remarks>
    /// <typeparam name="TBuilder">The builder type.</typeparam>
    /// <param name="builder">The builder.</param>
    /// <param name="admission">The admission controller (e.g. <c>CiceroRuntime.Admission</c>); not owned.</param>
    /// <param name="classify">
    /// The workflow of an execution; by default the <see cref="CiceroResilienceKeys.RequestContext"/> property, else
    /// <see cref="CiceroContext.Current"/>, else the overflow workflow.
    /// </param>
    /// <param name="configure">Further settings of the strategy (name, <c>OnRejected</c>).</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> or <paramref name="admission"/> is <see langword="null"/>.</exception>
    public static TBuilder AddCiceroRateLimiter<TBuilder>(
        this TBuilder builder,
        AdmissionController admission,
        Func<ResilienceContext, WorkflowId>? classify = null,
        Action<RateLimiterStrategyOptions>? configure = null)
        where TBuilder : ResiliencePipelineBuilderBase
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(admission);
        var limiter = new AdmissionPartitionedRateLimiter<ResilienceContext>(admission, classify ?? DefaultClassify);
        var options = new RateLimiterStrategyOptions
        {
            Name = "CiceroRateLimiter",
            RateLimiter = args => limiter.AcquireAsync(args.Context, 1, args.Context.CancellationToken),
        };
        configure?.Invoke(options);
        return builder.AddRateLimiter(options);
    }

    private static WorkflowId DefaultClassify(ResilienceContext context) =>
        context.Properties.TryGetValue(CiceroResilienceKeys.RequestContext, out var request)
            ? request.Workflow
            : CiceroContext.Current?.Workflow ?? default;
}
