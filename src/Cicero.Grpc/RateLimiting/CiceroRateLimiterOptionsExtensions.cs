// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.RateLimiting;
using Cicero.Workflows;
using Microsoft.AspNetCore.Http;

namespace Microsoft.AspNetCore.RateLimiting;

/// <summary>Adds Cicero admission to ASP.NET Core's rate-limiting middleware (<c>AddRateLimiter</c>).</summary>
public static class CiceroRateLimiterOptionsExtensions
{
    /// <summary>
    /// Adds a named rate-limiting policy that admits each HTTP request through Cicero's admission controller (the one
    /// <c>AddCicero</c> registers): the request's workflow comes from <paramref name="classify"/>, and it is admitted
    /// at that workflow's rate σ, which Cicero's rate adaptation keeps moving. Apply it with
    /// <c>RequireRateLimiting(policyName)</c> or <c>[EnableRateLimiting]</c>.
    /// </summary>
    /// <remarks>
    /// A refused request gets <paramref name="rejectionStatusCode"/>, a <c>Retry-After</c> header (whole seconds) when
    /// the rate refused it, and Cicero's drop-reason header (<c>cicero-drop-reason: rate_limited</c>, ...). Workflows
    /// past the registry's bound share the overflow workflow, so a client inventing ids cannot grow the partitions.
    /// </remarks>
    /// <param name="options">The middleware's options.</param>
    /// <param name="policyName">The policy's name.</param>
    /// <param name="classify">The workflow of a request (e.g. from a tenant header or claim); thread-safe.</param>
    /// <param name="rejectionStatusCode">The status of a refused request; 429 Too Many Requests by default.</param>
    /// <returns>The options.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="rejectionStatusCode"/> is not a 4xx or 5xx status.</exception>
    public static RateLimiterOptions AddCiceroPolicy(
        this RateLimiterOptions options,
        string policyName,
        Func<HttpContext, WorkflowId> classify,
        int rejectionStatusCode = StatusCodes.Status429TooManyRequests)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentException.ThrowIfNullOrWhiteSpace(policyName);
        ArgumentNullException.ThrowIfNull(classify);
        ArgumentOutOfRangeException.ThrowIfLessThan(rejectionStatusCode, 400);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(rejectionStatusCode, 599);
        return options.AddPolicy(policyName, new CiceroRateLimiterPolicy(classify, rejectionStatusCode));
    }
}
