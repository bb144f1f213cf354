// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using Cicero.Context;
using Cicero.ReplicaSelection;

namespace Cicero.Grpc.Context;

/// <summary>
/// The one binary trailer a Cicero server adds to every call it admitted (<see cref="CiceroMetadataKeys.Result"/>):
/// <c>version:u8 = 1 | b.st:f64 | b.θ:f64 | queue:f64 | serviceSeconds:f64 | background:f64 | instanceLength:u8 |
/// instance:ASCII</c>, little-endian. One trailer instead of three because every metadata entry costs more to carry
/// through HttpClient and Kestrel than to compute (docs/performance.md). Readers reject other versions and lengths and
/// non-finite or negative values, so a misbehaving callee cannot poison the caller's model.
/// </summary>
internal static class TrailerCodec
{
    public const byte Version = 1;
    public const int FixedLength = 1 + (5 * sizeof(double)) + 1;
    public const int MaxInstanceLength = byte.MaxValue;
    public const int MaxLength = FixedLength + MaxInstanceLength;

    public static byte[] Encode(ProgressDelta progress, double queueSize, TimeSpan serviceTime, double backgroundActivity, ReadOnlySpan<byte> instance)
    {
        var bytes = new byte[FixedLength + instance.Length];
        Write(bytes, progress, queueSize, serviceTime, backgroundActivity, instance);
        return bytes;
    }

    /// <summary>Encodes straight into the trailer's wire form (unpadded base64): one string, no intermediate array.</summary>
    public static string EncodeBase64(ProgressDelta progress, double queueSize, TimeSpan serviceTime, double backgroundActivity, ReadOnlySpan<byte> instance)
    {
        Span<byte> bytes = stackalloc byte[FixedLength + MaxInstanceLength];
        bytes = bytes[..(FixedLength + instance.Length)];
        Write(bytes, progress, queueSize, serviceTime, backgroundActivity, instance);
        return Protocol.Base64Metadata.Encode(bytes);
    }

    private static void Write(Span<byte> span, ProgressDelta progress, double queueSize, TimeSpan serviceTime, double backgroundActivity, ReadOnlySpan<byte> instance)
    {
        span[0] = Version;
        BinaryPrimitives.WriteDoubleLittleEndian(span[1..], progress.ServiceTime);
        BinaryPrimitives.WriteDoubleLittleEndian(span[9..], progress.Load);
        BinaryPrimitives.WriteDoubleLittleEndian(span[17..], queueSize);
        BinaryPrimitives.WriteDoubleLittleEndian(span[25..], serviceTime.TotalSeconds);
        BinaryPrimitives.WriteDoubleLittleEndian(span[33..], backgroundActivity);
        span[41] = (byte)instance.Length;
        instance.CopyTo(span[FixedLength..]);
    }

    public static bool TryDecode(ReadOnlySpan<byte> bytes, out ProgressDelta progress, out double queueSize, out double serviceSeconds, out double background, out ReadOnlySpan<byte> instance)
    {
        progress = default;
        queueSize = serviceSeconds = background = 0;
        instance = default;
        if (bytes.Length < FixedLength || bytes[0] != Version || bytes.Length != FixedLength + bytes[FixedLength - 1])
        {
            return false;
        }

        var serviceTime = BinaryPrimitives.ReadDoubleLittleEndian(bytes[1..]);
        var load = BinaryPrimitives.ReadDoubleLittleEndian(bytes[9..]);
        queueSize = BinaryPrimitives.ReadDoubleLittleEndian(bytes[17..]);
        serviceSeconds = BinaryPrimitives.ReadDoubleLittleEndian(bytes[25..]);
        background = BinaryPrimitives.ReadDoubleLittleEndian(bytes[33..]);
        instance = bytes[FixedLength..];
        if (!IsSane(serviceTime) || !IsSane(load) || !IsSane(queueSize) || !IsSane(serviceSeconds) || !IsSane(background)
            || serviceSeconds > TimeSpan.MaxValue.TotalSeconds / 2 || !CallerIds.IsValid(instance))
        {
            return false;
        }

        progress = new ProgressDelta(serviceTime, load);
        return true;
    }

    public static bool TryDecodeProgress(ReadOnlySpan<byte> bytes, out ProgressDelta progress) =>
        TryDecode(bytes, out progress, out _, out _, out _, out _);

    public static bool TryDecodeFeedback(ReadOnlySpan<byte> bytes, TimeSpan responseTime, bool failed, out ReplicaFeedback feedback)
    {
        if (!TryDecode(bytes, out _, out var queueSize, out var serviceSeconds, out var background, out _))
        {
            feedback = default;
            return false;
        }

        feedback = new ReplicaFeedback(responseTime, queueSize, TimeSpan.FromSeconds(serviceSeconds), background, failed);
        return true;
    }

    private static bool IsSane(double value) => double.IsFinite(value) && value >= 0;
}
