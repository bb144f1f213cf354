// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using Cicero.Context;

namespace Cicero.Grpc.Context;

/// <summary>
/// The one binary trailer a Cicero server adds to every call it admitted (<see cref="CiceroMetadataKeys.Result"/>):
/// <c>version:u8 = 2 | b.st:f32 | b.θ:f32 | queue:f32 | serviceSeconds:f32 | background:f32 | instanceLength:u8 |
/// instance:ASCII</c>, little-endian. One trailer instead of three, and single precision (7 significant digits, far
/// finer than the measurements), because every byte of it is base64-encoded, HPACK-indexed and turned into strings on
/// every response (docs/performance.md). Version 1, the same fields in double precision, is still read, so callers
/// and callees can be upgraded in any order. Readers reject other versions and lengths and non-finite or negative
/// values, so a misbehaving callee cannot poison the caller's model.
/// </summary>
internal static class TrailerCodec
{
    public const byte Version = 2;
    public const int FixedLength = 1 + (5 * sizeof(float)) + 1;
    public const byte LegacyVersion = 1;
    public const int LegacyFixedLength = 1 + (5 * sizeof(double)) + 1;
    public const int MaxInstanceLength = byte.MaxValue;

    /// <summary>The longest trailer either version allows: what a buffer for reading one must hold.</summary>
    public const int MaxLength = LegacyFixedLength + MaxInstanceLength;

    public static byte[] Encode(ProgressDelta progress, double queueSize, TimeSpan serviceTime, double backgroundActivity, ReadOnlySpan<byte> instance)
    {
        var bytes = new byte[FixedLength + instance.Length];
        Write(bytes, progress, queueSize, serviceTime, backgroundActivity, instance);
        return bytes;
    }


    private static void Write(Span<byte> span, ProgressDelta progress, double queueSize, TimeSpan serviceTime, double backgroundActivity, ReadOnlySpan<byte> instance)
    {
        span[0] = Version;
        BinaryPrimitives.WriteSingleLittleEndian(span[1..], (float)progress.ServiceTime);
        BinaryPrimitives.WriteSingleLittleEndian(span[5..], (float)progress.Load);
        BinaryPrimitives.WriteSingleLittleEndian(span[9..], (float)queueSize);
        BinaryPrimitives.WriteSingleLittleEndian(span[13..], (float)serviceTime.TotalSeconds);
        BinaryPrimitives.WriteSingleLittleEndian(span[17..], (float)backgroundActivity);
        span[FixedLength - 1] = (byte)instance.Length;
        instance.CopyTo(span[FixedLength..]);
    }

    public static bool TryDecode(ReadOnlySpan<byte> bytes, out ProgressDelta progress, out double queueSize, out double serviceSeconds, out double background, out ReadOnlySpan<byte> instance)
    {
        progress = default;
        queueSize = serviceSeconds = background = 0;
        instance = default;
        double serviceTime, load;
        if (bytes.Length >= FixedLength && bytes[0] == Version && bytes.Length == FixedLength + bytes[FixedLength - 1])
        {
            serviceTime = BinaryPrimitives.ReadSingleLittleEndian(bytes[1..]);
            load = BinaryPrimitives.ReadSingleLittleEndian(bytes[5..]);
            queueSize = BinaryPrimitives.ReadSingleLittleEndian(bytes[9..]);
            serviceSeconds = BinaryPrimitives.ReadSingleLittleEndian(bytes[13..]);
            background = BinaryPrimitives.ReadSingleLittleEndian(bytes[17..]);
            instance = bytes[FixedLength..];
        }
        else if (bytes.Length >= LegacyFixedLength && bytes[0] == LegacyVersion && bytes.Length == LegacyFixedLength + bytes[LegacyFixedLength - 1])
        {
            serviceTime = BinaryPrimitives.ReadDoubleLittleEndian(bytes[1..]);
            load = BinaryPrimitives.ReadDoubleLittleEndian(bytes[9..]);
            queueSize = BinaryPrimitives.ReadDoubleLittleEndian(bytes[17..]);
            serviceSeconds = BinaryPrimitives.ReadDoubleLittleEndian(bytes[25..]);
            background = BinaryPrimitives.ReadDoubleLittleEndian(bytes[33..]);
            instance = bytes[LegacyFixedLength..];
        }
        else
        {
            return false;
        }

        if (!IsSane(serviceTime) || !IsSane(load) || !IsSane(queueSize) || !IsSane(serviceSeconds) || !IsSane(background)
            || serviceSeconds > TimeSpan.MaxValue.TotalSeconds / 2 || !CallerIds.IsValid(instance))
        {
            instance = default;
            return false;
        }

        progress = new ProgressDelta(serviceTime, load);
        return true;
    }

    public static bool TryDecodeProgress(ReadOnlySpan<byte> bytes, out ProgressDelta progress) =>
        TryDecode(bytes, out progress, out _, out _, out _, out _);

    private static bool IsSane(double value) => double.IsFinite(value) && value >= 0;
}
