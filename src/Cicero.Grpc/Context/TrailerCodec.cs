// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using Cicero.Context;
using Cicero.ReplicaSelection;

namespace Cicero.Grpc.Context;

/// <summary>
/// The binary trailers: progress b = (version, service seconds, load) and feedback = (version, queue size, service
/// seconds, background activity), little-endian doubles. Readers reject other versions and lengths and non-finite or
/// negative values, so a misbehaving callee cannot poison the caller's model.
/// </summary>
internal static class TrailerCodec
{
    public const byte Version = 1;
    public const int ProgressLength = 1 + (2 * sizeof(double));
    public const int FeedbackLength = 1 + (3 * sizeof(double));

    public static byte[] EncodeProgress(ProgressDelta progress)
    {
        var bytes = new byte[ProgressLength];
        bytes[0] = Version;
        BinaryPrimitives.WriteDoubleLittleEndian(bytes.AsSpan(1), progress.ServiceTime);
        BinaryPrimitives.WriteDoubleLittleEndian(bytes.AsSpan(9), progress.Load);
        return bytes;
    }

    public static bool TryDecodeProgress(ReadOnlySpan<byte> bytes, out ProgressDelta progress)
    {
        progress = default;
        if (bytes.Length != ProgressLength || bytes[0] != Version)
        {
            return false;
        }

        var serviceTime = BinaryPrimitives.ReadDoubleLittleEndian(bytes[1..]);
        var load = BinaryPrimitives.ReadDoubleLittleEndian(bytes[9..]);
        if (!IsSane(serviceTime) || !IsSane(load))
        {
            return false;
        }

        progress = new ProgressDelta(serviceTime, load);
        return true;
    }

    public static byte[] EncodeFeedback(double queueSize, TimeSpan serviceTime, double backgroundActivity)
    {
        var bytes = new byte[FeedbackLength];
        bytes[0] = Version;
        BinaryPrimitives.WriteDoubleLittleEndian(bytes.AsSpan(1), queueSize);
        BinaryPrimitives.WriteDoubleLittleEndian(bytes.AsSpan(9), serviceTime.TotalSeconds);
        BinaryPrimitives.WriteDoubleLittleEndian(bytes.AsSpan(17), backgroundActivity);
        return bytes;
    }

    public static bool TryDecodeFeedback(ReadOnlySpan<byte> bytes, TimeSpan responseTime, bool failed, out ReplicaFeedback feedback)
    {
        feedback = default;
        if (bytes.Length != FeedbackLength || bytes[0] != Version)
        {
            return false;
        }

        var queueSize = BinaryPrimitives.ReadDoubleLittleEndian(bytes[1..]);
        var serviceSeconds = BinaryPrimitives.ReadDoubleLittleEndian(bytes[9..]);
        var background = BinaryPrimitives.ReadDoubleLittleEndian(bytes[17..]);
        if (!IsSane(queueSize) || !IsSane(serviceSeconds) || !IsSane(background) || serviceSeconds > TimeSpan.MaxValue.TotalSeconds / 2)
        {
            return false;
        }

        feedback = new ReplicaFeedback(responseTime, queueSize, TimeSpan.FromSeconds(serviceSeconds), background, failed);
        return true;
    }

    private static bool IsSane(double value) => double.IsFinite(value) && value >= 0;
}
