// SPDX-License-Identifier: Apache-2.0

using System.ComponentModel.DataAnnotations;
using Cicero.Context;
using Polly;

namespace Cicero.Grpc.Resilience;

/// <summary>Options of the Cicero admission strategy (<c>AddCiceroAdmission</c>).</summary>
/// <remarks>
/// The strategy admits each execution's request through Cicero's <see cref="Admission.AdmissionController"/>: it may
/// wait in the workflow's bounded queue (as long as the controller's bounds allow, cancelled by
/// <see cref="ResilienceContext.CancellationToken"/>), and a rejection never runs the operation.
/// </remarks>
public class CiceroAdmissionStrategyOptions : ResilienceStrategyOptions
{
    /// <summary>Creates the options with <see cref="CiceroAdmissionConstants.DefaultName"/> as the name.</summary>
    public CiceroAdmissionStrategyOptions()
    {
        Name = CiceroAdmissionConstants.DefaultName;
    }

    /// <summary>Gets or sets a callback invoked when an execution is rejected, before the rejection is returned.</summary>
    /// <value><see langword="null"/>.</value>
    public Func<OnAdmissionRejectedArguments, ValueTask>? OnRejected { get; set; }

    /// <summary>Gets or sets what happens to an execution that has no request context.</summary>
    /// <value><see cref="MissingContextBehavior.PassThrough"/>: untracked work runs without admission.</value>
    [EnumDataType(typeof(MissingContextBehavior))]
    public MissingContextBehavior MissingContext { get; set; } = MissingContextBehavior.PassThrough;

    /// <summary>
    /// Gets or sets how to find an execution's request. When <see langword="null"/>, the strategy uses the
    /// <see cref="CiceroResilienceKeys.RequestContext"/> property if set, else <see cref="CiceroContext.Current"/>.
    /// </summary>
    /// <value><see langword="null"/>.</value>
    /// <remarks>
    /// When set, it alone decides. Returning a context made with <see cref="RequestContext.Start"/> for a fallback
    /// workflow admits untracked work under that workflow instead of passing it through.
    /// </remarks>
    public Func<ResilienceContext, RequestContext?>? RequestContextSelector { get; set; }
}
