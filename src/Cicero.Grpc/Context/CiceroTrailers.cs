// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Grpc.Core;

namespace Cicero.Grpc.Context;

/// <summary>
/// Reads Cicero's trailer (<see cref="CiceroMetadataKeys.Result"/>) for callers that want the callee's report
/// themselves, e.g. to log the progress counters. <see cref="Client.CiceroClientInterceptor"/> already joins them into
/// the caller's context.
/// </summary>
public static class CiceroTrailers
{
    /// <summary>Reads the result of a call from its trailers.</summary>
    /// <param name="trailers">The call's trailers (<c>call.GetTrailers()</c>), or <see langword="null"/>.</param>
    /// <param name="result">The callee's report, when there is a well-formed one.</param>
    /// <returns>
    /// <see langword="false"/> if the trailer is missing (the callee runs no Cicero server interceptor, or dropped the
    /// call: see <see cref="CiceroMetadataKeys.DropReason"/>) or malformed.
    /// </returns>
    public static bool TryRead(Metadata? trailers, out CiceroCallResult result)
    {
        result = default;
        if (trailers?.Get(CiceroMetadataKeys.Result) is not { IsBinary: true } entry
            || !TrailerCodec.TryDecode(entry.ValueBytes, out var progress, out var queueSize, out var serviceSeconds, out var background, out var instance))
        {
            return false;
        }

        result = new CiceroCallResult(progress, queueSize, TimeSpan.FromSeconds(serviceSeconds), background, System.Text.Encoding.ASCII.GetString(instance));
        return true;
    }

    /// <summary>Reads only the progress counters b of a call from its trailers.</summary>
    /// <param name="trailers">The call's trailers, or <see langword="null"/>.</param>
    /// <param name="progress">The callee's b, when there is a well-formed trailer.</param>
    /// <returns><see langword="false"/> if the trailer is missing or malformed.</returns>
    public static bool TryReadProgress(Metadata? trailers, out ProgressDelta progress)
    {
        progress = default;
        return trailers?.Get(CiceroMetadataKeys.Result) is { IsBinary: true } entry
            && TrailerCodec.TryDecodeProgress(entry.ValueBytes, out progress);
    }
}
