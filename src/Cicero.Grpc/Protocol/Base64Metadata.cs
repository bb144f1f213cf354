// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Buffers.Text;
using System.Text;

namespace Cicero.Grpc.Protocol;

/// <summary>Binary header values: base64, sent without padding and accepted with or without it.</summary>
internal static class Base64Metadata
{
    // Above this, buffers come from the pool rather than the stack.
    private const int StackLimit = 512;

    public static string Encode(byte[] value) => Encode(value.AsSpan());

    public static string Encode(ReadOnlySpan<byte> value)
    {
        // Through UTF-8: the runtime's UTF-8 base64 codec is vectorized, and widening ASCII to a string is too.
        var length = Base64.GetMaxEncodedToUtf8Length(value.Length);
        byte[]? rented = null;
        var utf8 = length <= StackLimit ? stackalloc byte[length] : (rented = ArrayPool<byte>.Shared.Rent(length));
        try
        {
            Base64.EncodeToUtf8(value, utf8, out _, out var written);
            return Encoding.ASCII.GetString(utf8[..written].TrimEnd((byte)'='));
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    public static bool TryDecode(string value, out byte[] bytes) => TryDecode(value.AsSpan(), out bytes);

    /// <summary>Whether <paramref name="value"/> decodes (padded or not), checked without allocating for values up to a few hundred bytes.</summary>
    public static bool IsValid(ReadOnlySpan<char> value)
    {
        var decoded = (value.TrimEnd('=').Length * 3) / 4;
        if (decoded <= StackLimit)
        {
            Span<byte> scratch = stackalloc byte[StackLimit];
            return TryDecode(value, scratch, out _);
        }

        var rented = ArrayPool<byte>.Shared.Rent(decoded);
        try
        {
            return TryDecode(value, rented, out _);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>Decodes into <paramref name="destination"/>; padding optional. Allocates nothing below the stack limit.</summary>
    public static bool TryDecode(ReadOnlySpan<char> value, Span<byte> destination, out int written)
    {
        written = 0;
        var trimmed = value.TrimEnd('=');
        if (value.Length - trimmed.Length > 2 || trimmed.Length % 4 == 1)
        {
            return false;
        }

        var decodedLength = (trimmed.Length * 3) / 4;
        if (decodedLength > destination.Length)
        {
            return false;
        }

        // Narrowed to ASCII first, then decoded by the vectorized UTF-8 codec: about three times faster than Convert's
        // UTF-16 decoder on header-sized values (docs/performance.md). That codec is stricter (it refuses a last
        // character whose unused bits are set), so what it refuses goes to Convert, which defines what is accepted.
        var padded = (trimmed.Length + 3) / 4 * 4;
        byte[]? rented = null;
        var utf8 = padded <= StackLimit ? stackalloc byte[padded] : (rented = ArrayPool<byte>.Shared.Rent(padded));
        try
        {
            if (Ascii.FromUtf16(trimmed, utf8, out _) == OperationStatus.Done)
            {
                utf8[trimmed.Length..padded].Fill((byte)'=');
                if (Base64.DecodeFromUtf8(utf8[..padded], destination, out _, out written) == OperationStatus.Done && written == decodedLength)
                {
                    return true;
                }
            }
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }

        return TryDecodeLenient(trimmed, padded, destination, out written) && written == decodedLength;
    }

    private static bool TryDecodeLenient(ReadOnlySpan<char> trimmed, int padded, Span<byte> destination, out int written)
    {
        char[]? rented = null;
        var chars = padded <= StackLimit ? stackalloc char[padded] : (rented = ArrayPool<char>.Shared.Rent(padded));
        try
        {
            trimmed.CopyTo(chars);
            chars[trimmed.Length..padded].Fill('=');
            return Convert.TryFromBase64Chars(chars[..padded], destination, out written);
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<char>.Shared.Return(rented);
            }
        }
    }

    public static bool TryDecode(ReadOnlySpan<char> value, out byte[] bytes)
    {
        // Into an array of exactly the decoded size; input that cannot be base64 is refused before anything is allocated.
        bytes = [];
        var trimmed = value.TrimEnd('=');
        if (value.Length - trimmed.Length > 2 || trimmed.Length % 4 == 1)
        {
            return false;
        }

        var decoded = new byte[(trimmed.Length * 3) / 4];
        if (TryDecode(value, decoded, out var written) && written == decoded.Length)
        {
            bytes = decoded;
            return true;
        }

        return false;
    }
}
