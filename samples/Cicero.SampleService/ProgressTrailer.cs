// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using Cicero.Grpc;
using Cicero.Grpc.Protocol;

namespace Cicero.SampleService;

/// <summary>
/// Reads the <c>cicero-progress-bin</c> trailer, the progress b of the callee and everything it called: a version
/// byte (1), then service seconds and load as little-endian doubles. Cicero.Grpc's own decoder is internal.
/// </summary>
public static class ProgressTrailer
{
    private const int Length = 1 + (2 * sizeof(double));

    /// <summary>Reads the trailer.</summary>
    /// <param name="trailers">A call's trailers.</param>
    /// <param name="serviceSeconds">The service time b spent on the call, in seconds.</param>
    /// <param name="load">The load b: for resources, the seconds each permit was held over the resource's capacity, summed.</param>
    /// <returns>Whether the trailer was there and well formed.</returns>
    public static bool TryRead(Metadata? trailers, out double serviceSeconds, out double load)
    {
        serviceSeconds = 0;
        load = 0;
        if (trailers?.GetValueBytes(CiceroMetadataKeys.Progress) is not { Length: Length } bytes || bytes[0] != 1)
        {
            return false;
        }

        serviceSeconds = BinaryPrimitives.ReadDoubleLittleEndian(bytes.AsSpan(1));
        load = BinaryPrimitives.ReadDoubleLittleEndian(bytes.AsSpan(9));
        return double.IsFinite(serviceSeconds) && double.IsFinite(load);
    }
}
