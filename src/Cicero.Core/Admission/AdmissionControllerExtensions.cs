// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;

namespace Cicero.Admission;

/// <summary>
/// Admission as of a timestamp the host already read: a server that reads its clock once per request (to decode the
/// context, admit, and stamp the arrival; decision 0004) passes that reading instead of letting admission read again.
/// This is the seam Cicero.Grpc's server interceptor uses; the overloads without a timestamp read the clock.
/// </summary>
public static class AdmissionControllerExtensions
{
    /// <summary>Admits the request as of <paramref name="now"/> or rejects it; never waits.</summary>
    /// <param name="admission">The controller.</param>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <param name="now">A timestamp of the controller's clock (<see cref="TimeProvider.GetTimestamp"/>).</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    public static AdmissionResult TryAdmit(this AdmissionController admission, RequestContext context, string? caller, long now)
    {
        ArgumentNullException.ThrowIfNull(admission);
        return admission.TryAdmit(context, caller, now);
    }

    /// <summary>Admits the request as of <paramref name="now"/>, waiting in its workflow's bounded queue if the drop policy allows.</summary>
    /// <param name="admission">The controller.</param>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <param name="now">A timestamp of the controller's clock, or null to read it.</param>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    public static ValueTask<AdmissionResult> AdmitAsync(this AdmissionController admission, RequestContext context, string? caller, long? now, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(admission);
        return admission.AdmitAsync(context, caller, now, cancellationToken);
    }
}
