// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Polly;

namespace Cicero.Grpc.Resilience;

/// <summary>
/// <see cref="ResilienceContext.Properties"/> keys the Cicero strategies read, for callers that hold a request context
/// outside <see cref="CiceroContext.Current"/>.
/// </summary>
public static class CiceroResilienceKeys
{
    /// <summary>
    /// The request to admit or to take the deadline from. When set it wins over <see cref="CiceroContext.Current"/>;
    /// a strategy's <c>RequestContextSelector</c>, when configured, wins over both.
    /// </summary>
    public static readonly ResiliencePropertyKey<RequestContext> RequestContext = new("Cicero.RequestContext");

    /// <summary>
    /// The calling process, passed to <see cref="Admission.AdmissionController.AdmitAsync(Cicero.Context.RequestContext, string, CancellationToken)"/> so its demand share shapes
    /// the rates announced back to it. Optional.
    /// </summary>
    public static readonly ResiliencePropertyKey<string> Caller = new("Cicero.Caller");
}
