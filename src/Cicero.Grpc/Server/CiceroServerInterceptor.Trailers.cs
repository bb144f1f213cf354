// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using Cicero.Grpc.Context;
using Cicero.Runtime;
using Grpc.Core;

namespace Cicero.Grpc.Server;

/// <summary>Ending a call: the result trailer, the local model's completion, and drops and failures as the caller sees them.</summary>
public sealed partial class CiceroServerInterceptor
{
    private void End(ServerCallContext context, AdmittedCall call, Exception? failure, bool countsOutcome = true)
    {
        var othersInFlight = Interlocked.Decrement(ref _inFlight);
        var serviceTime = _runtime.TimeProvider.GetElapsedTime(call.AdmittedAt);
        _instanceBytes ??= CallerIds.Encode(_instance.Id, "instance id");
        var instance = call.IsUntrusted && !_options.ExposeInstanceIdToUntrustedCallers ? [] : _instanceBytes;
        context.ResponseTrailers.Add(
            CiceroMetadataKeys.Result,
            TrailerCodec.Encode(call.Request.Progress.Current, othersInFlight, serviceTime, _options.BackgroundActivity?.Invoke() ?? 0, instance));
        _runtime.CompleteRequest(call.Request, serviceTime, call.IsEntry);
        if (countsOutcome && call.IsEntry && CallerOutcome(context, failure) is { } succeeded)
        {
            _runtime.RecordEntryOutcome(call.Request, call.AdmittedAt, succeeded);
        }
    }

    /// <summary>
    /// What the caller of an admitted call got, as the goodput limit counts it: its result (true), a failure because the
    /// system could not serve it in time (false: a deadline passed, Cicero dropped it here or further down, or the caller
    /// gave up), or anything else (null), which says nothing of load: the application's own errors, and also
    /// <c>Unavailable</c> or <c>ResourceExhausted</c> without Cicero's drop trailer (a dependency down, a quota), which a
    /// limit on admissions would only turn from fast failures into refusals that outlast the cause.
    /// </summary>
    internal static bool? CallerOutcome(ServerCallContext context, Exception? failure) => failure switch
    {
        // A result the caller no longer waits for (its deadline passed, or it gave up) did not reach it.
        null => !context.CancellationToken.IsCancellationRequested,
        RequestDroppedException or OperationCanceledException => false,
        RpcException rpc when IsDownstreamDrop(rpc) => false,
        RpcException { StatusCode: StatusCode.DeadlineExceeded or StatusCode.Cancelled } => false,
        _ when context.CancellationToken.IsCancellationRequested => false,
        _ => null,
    };

    private RpcException Dropped(ServerCallContext context, DropReason reason, string? detail)
    {
        _drops?.OnDrop(context.Method, _instance.ServiceName, reason);
        var tag = DropReasonNames.ToWire(reason);
        var trailers = new Metadata { { CiceroMetadataKeys.DropReason, tag } };

        // The result trailer names this instance on a drop too: the caller counts the call towards the instance that
        // refused it (its share f of calls per instance), not towards an unknown one, which would inflate the rates
        // it derives from this instance's answer. No progress: nothing was served.
        _instanceBytes ??= CallerIds.Encode(_instance.Id, "instance id");
        var untrusted = _options.IsEntryPoint && !IsTrusted(context);
        var instance = untrusted && !_options.ExposeInstanceIdToUntrustedCallers ? [] : _instanceBytes;
        trailers.Add(CiceroMetadataKeys.Result, TrailerCodec.Encode(default, Interlocked.Read(ref _inFlight), TimeSpan.Zero, _options.BackgroundActivity?.Invoke() ?? 0, instance));
        var message = detail is null ? $"Request dropped by Cicero at {_instance.ServiceName}: {tag}." : $"Request dropped by Cicero at {_instance.ServiceName}: {tag} ({detail}).";
        return new RpcException(new Status(DropReasonNames.ToStatusCode(reason), message), trailers);
    }

    /// <summary>A downstream's drop, re-raised as this service's own: the downstream's trailers (its ids) stay behind.</summary>
    private RpcException DownstreamDropped(ServerCallContext context, RpcException downstream)
    {
        var detail = downstream.Trailers.GetValue(CiceroMetadataKeys.DropReason);
        return Dropped(context, DropReason.DownstreamDropped, $"a downstream call was dropped: {detail}");
    }

    /// <summary>
    /// Whether a handler's exception is one the caller must see reshaped: a drop here, a downstream's drop (re-raised
    /// as this service's), or a failure carrying a callee's result trailer (which must not reach this caller).
    /// </summary>
    private static bool IsCiceroFailure(Exception ex) =>
        ex is RequestDroppedException || (ex is RpcException rpc && (IsDownstreamDrop(rpc) || CarriesResult(rpc)));

    /// <summary>The exception the caller sees for one <see cref="IsCiceroFailure"/> accepts, in that order of precedence.</summary>
    private RpcException AsCallerSees(ServerCallContext context, Exception ex) => ex switch
    {
        RequestDroppedException dropped => Dropped(context, dropped.Reason, dropped.Message),
        RpcException rpc when IsDownstreamDrop(rpc) => DownstreamDropped(context, rpc),
        RpcException rpc when CarriesResult(rpc) => WithoutResult(rpc),
        _ => throw new UnreachableException("Only exceptions IsCiceroFailure accepts are reshaped."),
    };

    private static bool IsDownstreamDrop(RpcException ex) => ex.Trailers.Get(CiceroMetadataKeys.DropReason) is not null;

    /// <summary>A downstream call's failure that escapes a handler would hand its callee's result trailer to this caller.</summary>
    private static bool CarriesResult(RpcException ex) => ex.Trailers.Get(CiceroMetadataKeys.Result) is not null;

    /// <summary>The same failure without the callee's result trailer: this call's own is the one its caller reads.</summary>
    private static RpcException WithoutResult(RpcException ex)
    {
        var trailers = new Metadata();
        foreach (var entry in ex.Trailers)
        {
            if (!string.Equals(entry.Key, CiceroMetadataKeys.Result, StringComparison.Ordinal))
            {
                trailers.Add(entry);
            }
        }

        return new RpcException(ex.Status, trailers, ex.Message);
    }

    private static RpcException Invalid(string message) => new(new Status(StatusCode.InvalidArgument, message));
}
