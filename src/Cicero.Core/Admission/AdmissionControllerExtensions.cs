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

    /// <summary>
    /// Admits one hop of a request under Cicero's admission semantics (docs/decisions/0021), the one code path of
    /// Cicero.Grpc's server interceptor and of the emulator's simulator: a request is admitted against σ (and judged by
    /// the drop policy) where it enters; an interior hop of a request admitted upstream is only counted
    /// (<see cref="AdmissionController.Count(RequestContext, string?)"/>), so its limits reach the entry as σ′, unless
    /// <paramref name="throttleInterior"/> holds interior hops to this instance's σ as well.
    /// </summary>
    /// <param name="admission">The controller.</param>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <param name="isEntry">Whether the request enters the system here (no context came with it).</param>
    /// <param name="throttleInterior">Whether an interior hop is admitted against σ too; <see cref="ThrottleInteriorHopsByDefault"/> by default.</param>
    /// <param name="queue">Whether a request over the rate may wait in the workflow's bounded queue; when <see langword="false"/> the result is always complete.</param>
    /// <param name="now">A timestamp of the controller's clock, or null to read it.</param>
    /// <param name="cancellationToken">Cancels a wait.</param>
    /// <returns>Admitted (a counted hop always is), or the reason for the rejection.</returns>
    public static ValueTask<AdmissionResult> AdmitHopAsync(
        this AdmissionController admission,
        RequestContext context,
        string? caller,
        bool isEntry,
        bool throttleInterior,
        bool queue,
        long? now,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(admission);
        if (!isEntry && !throttleInterior)
        {
            admission.Count(context, caller);
            return new ValueTask<AdmissionResult>(AdmissionResult.Admitted);
        }

        return queue
            ? admission.AdmitAsync(context, caller, now, cancellationToken)
            : new ValueTask<AdmissionResult>(now is { } at ? admission.TryAdmit(context, caller, at) : admission.TryAdmit(context, caller));
    }

    /// <summary>
    /// Gets a value indicating whether interior hops are held to σ by default: <see langword="false"/>, a workflow is
    /// throttled where it enters (docs/decisions/0021). Cicero.Grpc's <c>ThrottleInteriorCalls</c> and the emulator's
    /// simulator both start from this value.
    /// </summary>
    public static bool ThrottleInteriorHopsByDefault => false;
}
