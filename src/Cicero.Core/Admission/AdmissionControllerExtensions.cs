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
    /// Admits one hop of a request under Cicero's admission semantics (docs/decisions/0022), the one code path of
    /// Cicero.Grpc's server interceptor and of the emulator's simulator: a request is admitted against σ (and judged by
    /// the drop policy) where it enters; an interior hop of a request admitted upstream is handled as
    /// <paramref name="interior"/> says (<see cref="DefaultInteriorAdmission"/> by default).
    /// </summary>
    /// <param name="admission">The controller.</param>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <param name="isEntry">Whether the request enters the system here (no context came with it).</param>
    /// <param name="interior">What an interior hop gets: counted, refused above its local fair share, or admitted.</param>
    /// <param name="queue">Whether a request over the rate may wait in the workflow's bounded queue; when <see langword="false"/> the result is always complete.</param>
    /// <param name="now">A timestamp of the controller's clock, or null to read it.</param>
    /// <param name="cancellationToken">Cancels a wait.</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    public static ValueTask<AdmissionResult> AdmitHopAsync(
        this AdmissionController admission,
        RequestContext context,
        string? caller,
        bool isEntry,
        InteriorAdmission interior,
        bool queue,
        long? now,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(admission);
        if (!isEntry && interior == InteriorAdmission.Count)
        {
            return new ValueTask<AdmissionResult>(admission.InteriorShares.Count(context, caller));
        }

        // Counted, unless it sends more than its fair share to a local bottleneck now (then σ here is that share).
        if (!isEntry && interior == InteriorAdmission.LocalFairShare && admission.InteriorShares.TryCountUnarmed(context, caller))
        {
            return new ValueTask<AdmissionResult>(AdmissionResult.Admitted);
        }

        return queue
            ? admission.AdmitAsync(context, caller, now, cancellationToken)
            : new ValueTask<AdmissionResult>(now is { } at ? admission.TryAdmit(context, caller, at) : admission.TryAdmit(context, caller));
    }

    /// <summary>
    /// Gets what an interior hop gets by default: <see cref="InteriorAdmission.LocalFairShare"/> (docs/decisions/0022).
    /// Cicero.Grpc's <c>InteriorCalls</c> starts from this value.
    /// </summary>
    public static InteriorAdmission DefaultInteriorAdmission => InteriorAdmission.LocalFairShare;
}
