// SPDX-License-Identifier: Apache-2.0

using System.Text;
using Google.Protobuf;

namespace Cicero.Grpc.Interop.Tests.Services;

/// <summary>Large, compressible, checkable message bodies.</summary>
public static class Payloads
{
    /// <summary>Five megabytes, the size the issue asks every path to carry.</summary>
    public const int FiveMegabytes = 5 * 1024 * 1024;

    /// <summary>Room for a five-megabyte payload and its framing, for both sides' message-size limits.</summary>
    public const int MaxMessageSize = 8 * 1024 * 1024;

    /// <summary>Creates a payload of numbered lines: gzip shrinks it a lot, and any corruption changes it.</summary>
    /// <param name="size">The size in bytes.</param>
    /// <param name="seed">Varies the content.</param>
    /// <returns>The payload.</returns>
    public static ByteString Create(int size, int seed = 0)
    {
        var bytes = new byte[size];
        var offset = 0;
        for (var line = 0; offset < size; line++)
        {
            var text = Encoding.ASCII.GetBytes($"line {line} of payload {seed}\n");
            var count = Math.Min(text.Length, size - offset);
            text.AsSpan(0, count).CopyTo(bytes.AsSpan(offset));
            offset += count;
        }

        return UnsafeByteOperations.UnsafeWrap(bytes);
    }
}
