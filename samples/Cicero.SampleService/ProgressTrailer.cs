// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Grpc.Core;

namespace Cicero.SampleService;

/// <summary>Reads the progress b of the callee and everything it called from Cicero's trailer.</summary>
public static class ProgressTrailer
{
    /// <summary>Reads the trailer.</summary>
    /// <param name="trailers">A call's trailers.</param>
    /// <param name="serviceSeconds">The service time b spent on the call, in seconds.</param>
    /// <param name="load">The load b: for resources, the seconds each permit was held over the resource's capacity, summed.</param>
    /// <returns>Whether the trailer was there and well formed.</returns>
    public static bool TryRead(Metadata? trailers, out double serviceSeconds, out double load)
    {
        var found = CiceroTrailers.TryReadProgress(trailers, out var progress);
        serviceSeconds = progress.ServiceTime;
        load = progress.Load;
        return found;
    }
}
