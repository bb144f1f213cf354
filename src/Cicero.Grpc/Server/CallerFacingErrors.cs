// SPDX-License-Identifier: Apache-2.0

using Cicero.Runtime;
using Grpc.Core;

namespace Cicero.Grpc.Server;

/// <summary>
/// How a handler's failure reads to the caller and to the goodput limit: which failures Cicero reshapes, a downstream's
/// drop or result trailer recognised, and the outcome an admitted call counts as.
/// </summary>
internal static class CallerFacingErrors
{
    /// <summary>
    /// What the caller of an admitted call got, as the goodput limit counts it: its result (true), a failure because the
    /// system could not serve it in time (false: a deadline passed, Cicero dropped it here or further down, or the caller
    /// gave up), or anything else (null), which says nothing of load: the application's own errors, and also
    /// <c>Unavailable</c> or <c>ResourceExhausted</c> without Cicero's drop trailer (a dependency down, a quota), which a
    /// limit on admissions would only turn from fast failures into refusals that outlast the cause.
    /// </summary>
    public static bool? CallerOutcome(ServerCallContext context, Exception? failure) => failure switch
    {
        // A result the caller no longer waits for (its deadline passed, or it gave up) did not reach it.
        null => !context.CancellationToken.IsCancellationRequested,
        RequestDroppedException or OperationCanceledException => false,
        RpcException rpc when IsDownstreamDrop(rpc) => false,
        RpcException { StatusCode: StatusCode.DeadlineExceeded or StatusCode.Cancelled } => false,
        _ when context.CancellationToken.IsCancellationRequested => false,
        _ => null,
    };

    /// <summary>
    /// Whether a handler's exception is one the caller must see reshaped: a drop here, a downstream's drop (re-raised
    /// as this service's), or a failure carrying a callee's result trailer (which must not reach this caller).
    /// </summary>
    public static bool IsCiceroFailure(Exception ex) =>
        ex is RequestDroppedException || (ex is RpcException rpc && (IsDownstreamDrop(rpc) || CarriesResult(rpc)));

    public static bool IsDownstreamDrop(RpcException ex) => ex.Trailers.Get(CiceroMetadataKeys.DropReason) is not null;

    /// <summary>A downstream call's failure that escapes a handler would hand its callee's result trailer to this caller.</summary>
    public static bool CarriesResult(RpcException ex) => ex.Trailers.Get(CiceroMetadataKeys.Result) is not null;

    /// <summary>The same failure without the callee's result trailer: this call's own is the one its caller reads.</summary>
    public static RpcException WithoutResult(RpcException ex)
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

    public static RpcException Invalid(string message) => new(new Status(StatusCode.InvalidArgument, message));
}
