// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Telemetry;
using Grpc.Core;

namespace Cicero.Grpc.Server;

/// <summary>Beginning a call: its context read or started (<see cref="IncomingRequests"/>), then admitted.</summary>
public sealed partial class CiceroServerInterceptor
{
    /// <summary>Reads or starts the context and admits it; completes synchronously unless admission queues the call.</summary>
    /// <remarks>One clock reading serves the decoding, the admission and the admission timestamp of a call admitted at once.</remarks>
    private ValueTask<AdmittedCall> BeginAsync(ServerCallContext context, System.Diagnostics.Activity? activity)
    {
        var now = _runtime.TimeProvider.GetTimestamp();
        var (incoming, caller, isEntry, expired) = _incoming.ReadOrStart(context, now);
        if (expired is not null)
        {
            throw Dropped(context, DropReason.DeadlineExpired, expired);
        }

        var request = incoming!;

        // The feasibility estimate's unit: this workflow at this method (a context is this hop's own, never shared).
        request.Operation = context.Method;
        var untrusted = isEntry && !_incoming.IsTrusted(context);
        CiceroActivities.SetWorkflow(activity, request.Workflow, _tags);
        // Decision 0022: the one admission path the simulator takes too; InteriorCalls says what an interior hop gets.
        var admission = _runtime.Admission.AdmitHopAsync(request, caller, isEntry, _options.InteriorCalls, _options.QueueForAdmission, now, context.CancellationToken);
        return admission.IsCompletedSuccessfully
            ? new ValueTask<AdmittedCall>(Admitted(context, activity, request, isEntry, untrusted, admission.Result, now))
            : AwaitAdmissionAsync(admission, context, activity, request, isEntry, untrusted);
    }

    private async ValueTask<AdmittedCall> AwaitAdmissionAsync(
        ValueTask<AdmissionResult> admission,
        ServerCallContext context,
        System.Diagnostics.Activity? activity,
        RequestContext request,
        bool isEntry,
        bool untrusted)
    {
        var result = await admission.ConfigureAwait(false);
        return Admitted(context, activity, request, isEntry, untrusted, result, _runtime.TimeProvider.GetTimestamp());
    }

    private AdmittedCall Admitted(ServerCallContext context, System.Diagnostics.Activity? activity, RequestContext request, bool isEntry, bool untrusted, AdmissionResult result, long now)
    {
        CiceroActivities.SetAdmission(activity, result.Reason);
        if (!result.IsAdmitted)
        {
            throw Dropped(context, result.Reason, null);
        }

        Interlocked.Increment(ref _inFlight);
        return new AdmittedCall(request, now, isEntry, untrusted);
    }
}
