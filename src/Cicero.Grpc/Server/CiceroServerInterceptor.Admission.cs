// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Grpc.Telemetry;
using Grpc.Core;

namespace Cicero.Grpc.Server;

/// <summary>Beginning a call: reading or starting its context (trust, header limits, deadlines) and admitting it.</summary>
public sealed partial class CiceroServerInterceptor
{
    /// <summary>Reads or starts the context and admits it; completes synchronously unless admission queues the call.</summary>
    /// <remarks>One clock reading serves the decoding, the admission and the admission timestamp of a call admitted at once.</remarks>
    private ValueTask<AdmittedCall> BeginAsync(ServerCallContext context, System.Diagnostics.Activity? activity)
    {
        var now = _runtime.TimeProvider.GetTimestamp();
        var (request, caller, isEntry) = ReadOrStartRequest(context, now);

        // The feasibility estimate's unit: this workflow at this method (a context is this hop's own, never shared).
        request.Operation = context.Method;
        var untrusted = isEntry && !IsTrusted(context);
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

    private (RequestContext Request, string? Caller, bool IsEntry) ReadOrStartRequest(ServerCallContext context, long now)
    {
        var trusted = IsTrusted(context);
        RequestContext? request = null;
        string? caller = null;
        Span<byte> buffer = stackalloc byte[ContextHeader.MaxLength];
        var read = IncomingHeaders.TryRead(context, CiceroMetadataKeys.Context, buffer, out var length);
        switch (read)
        {
            case IncomingHeaders.Outcome.Malformed:
                throw Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: it must be one binary (base64) value.");
            case IncomingHeaders.Outcome.TooLong:
                throw Invalid($"Header '{CiceroMetadataKeys.Context}' is longer than the limit of {_options.MaxContextHeaderBytes} bytes.");
            case IncomingHeaders.Outcome.Found when length > _options.MaxContextHeaderBytes:
                throw Invalid($"Header '{CiceroMetadataKeys.Context}' is {length} bytes; the limit is {_options.MaxContextHeaderBytes}.");
            case IncomingHeaders.Outcome.Found when trusted:
                // An untrusted caller's context is not even decoded: its workflow must not enter the registry.
                ContextHeader.Split(buffer[..length], out var contextBytes, out var callerBytes);
                if (!_runtime.Codec.TryRead(contextBytes, now, out request, out var error))
                {
                    throw Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: {error}");
                }

                if (!callerBytes.IsEmpty)
                {
                    if (!CallerIds.IsValid(callerBytes))
                    {
                        throw Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: the caller id after the context must be 1-{CallerIds.MaxLength} printable ASCII characters without spaces.");
                    }

                    caller = _callers.Get(callerBytes);
                }

                break;
        }

        if (request is not null)
        {
            if (request.GetRemainingBudget(_runtime.TimeProvider) is { } remaining && remaining <= TimeSpan.Zero)
            {
                // The end-to-end deadline passed on the way here: nothing this call does can still count.
                throw Dropped(context, DropReason.DeadlineExpired, "the request's end-to-end deadline passed before this hop");
            }

            return (request, caller, false);
        }

        var workflow = _options.Classifier.Classify(context);
        var deadline = _options.DeadlineSelector?.Invoke(context, workflow)
            ?? (context.Deadline != DateTime.MaxValue ? context.Deadline - _runtime.TimeProvider.GetUtcNow().UtcDateTime : _options.DefaultDeadline);
        if (deadline <= TimeSpan.Zero)
        {
            // The caller's deadline passed before admission (a timeout of a few nanoseconds, or time spent in the
            // transport): nothing can finish in time, and a context cannot carry a δ that is not positive.
            throw Dropped(context, DropReason.DeadlineExpired, "the call's deadline passed before it was admitted");
        }

        return (_runtime.StartRequest(workflow, deadline), caller, true);
    }

    private bool IsTrusted(ServerCallContext context) =>
        !_options.IsEntryPoint || _options.TrustIncomingContext || (_options.IsTrustedCaller?.Invoke(context) ?? false);

    private bool IsExempt(ServerCallContext context)
    {
        var method = context.Method;
        if (method.StartsWith(RateExchange.RateExchangeService.MethodPrefix, StringComparison.Ordinal))
        {
            return true;
        }

        var exempt = _exempt;
        for (var i = 0; i < exempt.Length; i++)
        {
            if (method.StartsWith(exempt[i], StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }
}
