// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Buffers.Text;
using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace Cicero.Grpc.Server;

/// <summary>
/// Reads Cicero's binary request header. Under ASP.NET Core it is read straight from the HTTP request, so a malformed
/// value is Cicero's to report (INVALID_ARGUMENT naming the header) and the call does not pay for the conversion of
/// every header into <see cref="ServerCallContext.RequestHeaders"/>; other hosts go through the metadata.
/// </summary>
internal static class IncomingHeaders
{
    /// <summary>What reading the header found.</summary>
    public enum Outcome
    {
        Missing,
        Found,
        Malformed,
        TooLong,
    }

    public static Outcome TryRead(ServerCallContext context, string key, Span<byte> destination, out int length)
    {
        length = 0;
        var http = HttpContextOf(context);
        if (http is null)
        {
            var entry = context.RequestHeaders.Get(key);
            if (entry is null)
            {
                return Outcome.Missing;
            }

            if (!entry.IsBinary)
            {
                return Outcome.Malformed;
            }

            var bytes = entry.ValueBytes;
            if (bytes.Length > destination.Length)
            {
                length = bytes.Length;
                return Outcome.TooLong;
            }

            bytes.CopyTo(destination);
            length = bytes.Length;
            return Outcome.Found;
        }

        if (!http.Request.Headers.TryGetValue(key, out var values) || values.Count == 0)
        {
            return Outcome.Missing;
        }

        if (values.Count > 1)
        {
            return Outcome.Malformed;
        }

        return Decode(values[0].AsSpan(), destination, out length);
    }

    /// <summary>Decodes base64 as gRPC sends it (padding optional); never throws.</summary>
    internal static Outcome Decode(ReadOnlySpan<char> text, Span<byte> destination, out int length)
    {
        length = 0;
        text = text.Trim();
        var padded = (text.Length + 3) / 4 * 4;
        if (padded / 4 * 3 > destination.Length + 2)
        {
            length = padded / 4 * 3;
            return Outcome.TooLong;
        }

        Span<byte> utf8 = padded <= 1024 ? stackalloc byte[padded] : new byte[padded];
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (c > 127)
            {
                return Outcome.Malformed;
            }

            utf8[i] = (byte)c;
        }

        utf8[text.Length..padded].Fill((byte)'=');
        var status = Base64.DecodeFromUtf8(utf8, destination, out _, out length);
        switch (status)
        {
            case OperationStatus.Done:
                return Outcome.Found;
            case OperationStatus.DestinationTooSmall:
                return Outcome.TooLong;
        }

        // The vectorized decoder refuses a last character with non-zero unused bits, which grpc-dotnet's own reading
        // of binary metadata (Convert) accepts: a header must mean the same whichever way it is read.
        Span<char> chars = padded <= 1024 ? stackalloc char[padded] : new char[padded];
        for (var i = 0; i < padded; i++)
        {
            chars[i] = (char)utf8[i];
        }

        return Convert.TryFromBase64Chars(chars, destination, out length) ? Outcome.Found : Outcome.Malformed;
    }

    private static HttpContext? HttpContextOf(ServerCallContext context)
    {
        // Under ASP.NET Core this is a type test; outside it (test doubles, custom hosts) it throws, rarely.
        try
        {
            return context.GetHttpContext();
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }
}
