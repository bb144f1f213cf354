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
        if (countsOutcome && call.IsEntry && CallerFacingErrors.CallerOutcome(context, failure) is { } succeeded)
        {
            _runtime.RecordEntryOutcome(call.Request, call.AdmittedAt, succeeded);
        }
    }

    private RpcException Dropped(ServerCallContext context, DropReason reason, string? detail)
    {
        _drops?.OnDrop(context.Method, _instance.ServiceName, reason);
        var tag = DropReasonNames.ToWire(reason);
        var trailers = new Metadata { { CiceroMetadataKeys.DropReason, tag } };

        // The result trailer names this instance on a drop too: the caller counts the call towards the instance that
        // refused it (its share f of calls per instance), not towards an unknown one, which would inflate the rates
        // it derives from this instance's answer. No progress: nothing was served.
        _instanceBytes ??= CallerIds.Encode(_instance.Id, "instance id");
        var untrusted = _options.IsEntryPoint && !_incoming.IsTrusted(context);
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

    /// <summary>The exception the caller sees for one <see cref="CallerFacingErrors.IsCiceroFailure"/> accepts, in that order of precedence.</summary>
    private RpcException AsCallerSees(ServerCallContext context, Exception ex) => ex switch
    {
        RequestDroppedException dropped => Dropped(context, dropped.Reason, dropped.Message),
        RpcException rpc when CallerFacingErrors.IsDownstreamDrop(rpc) => DownstreamDropped(context, rpc),
        RpcException rpc when CallerFacingErrors.CarriesResult(rpc) => CallerFacingErrors.WithoutResult(rpc),
        _ => throw new UnreachableException("Only exceptions IsCiceroFailure accepts are reshaped."),
    };
}
