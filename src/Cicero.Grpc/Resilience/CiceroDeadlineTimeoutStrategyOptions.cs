// SPDX-License-Identifier: Apache-2.0

using System.ComponentModel.DataAnnotations;
using System.Diagnostics.CodeAnalysis;
using Cicero.Context;
using Polly;
using Polly.Timeout;

namespace Cicero.Grpc.Resilience;

/// <summary>Options of the Cicero deadline timeout (<c>AddCiceroDeadlineTimeout</c>).</summary>
/// <remarks>
/// The timeout of each execution is its request's remaining budget, <see cref="RequestContext.GetRemainingBudget"/>,
/// read from the pipeline's <see cref="ResiliencePipelineBuilderBase.TimeProvider"/> when the execution starts. That
/// clock must be the one that stamped the contexts (the <c>CiceroRuntime</c>'s).
/// </remarks>
public class CiceroDeadlineTimeoutStrategyOptions : ResilienceStrategyOptions
{
    /// <summary>Creates the options with <see cref="CiceroDeadlineTimeoutConstants.DefaultName"/> as the name.</summary>
    public CiceroDeadlineTimeoutStrategyOptions()
    {
        Name = CiceroDeadlineTimeoutConstants.DefaultName;
    }

    /// <summary>
    /// Gets or sets the timeout of executions whose request has no deadline, or that have no request context.
    /// </summary>
    /// <value>
    /// <see langword="null"/>: no timeout. Otherwise between 10 milliseconds and 24 hours, Polly's bounds for
    /// <see cref="TimeoutStrategyOptions.Timeout"/>.
    /// </value>
    [Range(typeof(TimeSpan), "00:00:00.010", "1.00:00:00")]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "TimeSpan's type converter is always kept.")]
    public TimeSpan? FallbackTimeout { get; set; }

    /// <summary>
    /// Gets or sets a callback invoked when an execution times out, or is rejected because its budget was already
    /// spent (then <see cref="OnTimeoutArguments.Timeout"/> is <see cref="TimeSpan.Zero"/>).
    /// </summary>
    /// <value><see langword="null"/>.</value>
    public Func<OnTimeoutArguments, ValueTask>? OnTimeout { get; set; }

    /// <summary>
    /// Gets or sets how to find an execution's request. When <see langword="null"/>, the strategy uses the
    /// <see cref="CiceroResilienceKeys.RequestContext"/> property if set, else <see cref="CiceroContext.Current"/>.
    /// </summary>
    /// <value><see langword="null"/>.</value>
    public Func<ResilienceContext, RequestContext?>? RequestContextSelector { get; set; }
}
