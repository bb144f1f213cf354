// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;

namespace Cicero.Grpc.Protocol;

/// <summary>The parts of the gRPC over HTTP/2 specification that are not framing: names, timeouts, status text.</summary>
internal static class GrpcProtocol
{
    public const string ContentType = "application/grpc";
    public const string StatusTrailer = "grpc-status";
    public const string MessageTrailer = "grpc-message";
    public const string TimeoutHeader = "grpc-timeout";
    public const string EncodingHeader = "grpc-encoding";
    public const string AcceptEncodingHeader = "grpc-accept-encoding";
    public const string TeHeader = "te";
    public const int MaxTimeoutDigits = 8;

    /// <summary>Whether a content type is gRPC's (<c>application/grpc</c> or <c>application/grpc+proto</c> etc.).</summary>
    public static bool IsGrpcContentType(string? contentType) =>
        contentType is not null &&
        contentType.StartsWith(ContentType, StringComparison.OrdinalIgnoreCase) &&
        (contentType.Length == ContentType.Length || contentType[ContentType.Length] is '+' or ';');

    /// <summary>Whether a header is one the transport owns, so it is not exposed as call metadata.</summary>
    public static bool IsReservedHeader(string name) =>
        name.StartsWith(':') ||
        name.StartsWith("grpc-", StringComparison.OrdinalIgnoreCase) ||
        string.Equals(name, "content-type", StringComparison.OrdinalIgnoreCase) ||
        string.Equals(name, "te", StringComparison.OrdinalIgnoreCase) ||
        string.Equals(name, "host", StringComparison.OrdinalIgnoreCase) ||
        string.Equals(name, "user-agent", StringComparison.OrdinalIgnoreCase) ||
        string.Equals(name, "content-length", StringComparison.OrdinalIgnoreCase) ||
        string.Equals(name, "transfer-encoding", StringComparison.OrdinalIgnoreCase) ||
        string.Equals(name, "date", StringComparison.OrdinalIgnoreCase) ||
        string.Equals(name, "server", StringComparison.OrdinalIgnoreCase);

    /// <summary>Formats a timeout as <c>grpc-timeout</c>: at most 8 digits and a unit, rounded up.</summary>
    public static string FormatTimeout(TimeSpan timeout)
    {
        var ticks = Math.Max(0, timeout.Ticks);
        // 100 ns ticks: try the finest unit whose value fits in 8 digits.
        if (ticks / 10 < 100_000_000)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{Math.Max(1, (ticks + 9) / 10)}u");
        }

        var ms = (ticks + TimeSpan.TicksPerMillisecond - 1) / TimeSpan.TicksPerMillisecond;
        if (ms < 100_000_000)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{ms}m");
        }

        var s = (ticks + TimeSpan.TicksPerSecond - 1) / TimeSpan.TicksPerSecond;
        if (s < 100_000_000)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{s}S");
        }

        return string.Create(CultureInfo.InvariantCulture, $"{Math.Min(99_999_999, (s + 3599) / 3600)}H");
    }

    /// <summary>Parses a <c>grpc-timeout</c> value; <see langword="false"/> with a reason when it is malformed.</summary>
    public static bool TryParseTimeout(string value, out TimeSpan timeout, out string? error)
    {
        timeout = default;
        if (value.Length < 2 || value.Length > MaxTimeoutDigits + 1)
        {
            error = $"grpc-timeout '{value}' must be 1 to 8 digits followed by a unit (H, M, S, m, u, n).";
            return false;
        }

        long amount = 0;
        for (var i = 0; i < value.Length - 1; i++)
        {
            var c = value[i];
            if (c is < '0' or > '9')
            {
                error = $"grpc-timeout '{value}' has a non-digit at position {i}.";
                return false;
            }

            amount = (amount * 10) + (c - '0');
        }

        long? ticks = value[^1] switch
        {
            'H' => amount * TimeSpan.TicksPerHour,
            'M' => amount * TimeSpan.TicksPerMinute,
            'S' => amount * TimeSpan.TicksPerSecond,
            'm' => amount * TimeSpan.TicksPerMillisecond,
            'u' => amount * 10,
            'n' => amount / 100,
            _ => null,
        };
        if (ticks is null)
        {
            error = $"grpc-timeout '{value}' has the unknown unit '{value[^1]}'; expected H, M, S, m, u or n.";
            return false;
        }

        timeout = TimeSpan.FromTicks(ticks.Value);
        error = null;
        return true;
    }

    /// <summary>Percent-encodes a status message as the specification requires for <c>grpc-message</c>.</summary>
    public static string EncodeMessage(string message)
    {
        var needsEncoding = false;
        foreach (var c in message)
        {
            if (c is < ' ' or > '~' or '%')
            {
                needsEncoding = true;
                break;
            }
        }

        if (!needsEncoding)
        {
            return message;
        }

        var builder = new StringBuilder(message.Length + 16);
        foreach (var b in Encoding.UTF8.GetBytes(message))
        {
            if (b is < (byte)' ' or > (byte)'~' or (byte)'%')
            {
                builder.Append('%').Append(b.ToString("X2", CultureInfo.InvariantCulture));
            }
            else
            {
                builder.Append((char)b);
            }
        }

        return builder.ToString();
    }

    /// <summary>Decodes a percent-encoded <c>grpc-message</c>; malformed escapes are kept as they are.</summary>
    public static string DecodeMessage(string? message)
    {
        if (string.IsNullOrEmpty(message) || !message.Contains('%', StringComparison.Ordinal))
        {
            return message ?? string.Empty;
        }

        var bytes = new List<byte>(message.Length);
        for (var i = 0; i < message.Length; i++)
        {
            if (message[i] == '%' && i + 2 < message.Length &&
                byte.TryParse(message.AsSpan(i + 1, 2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var b))
            {
                bytes.Add(b);
                i += 2;
            }
            else
            {
                bytes.Add((byte)message[i]);
            }
        }

        return Encoding.UTF8.GetString(bytes.ToArray());
    }

    /// <summary>Maps an HTTP status other than 200 to a gRPC status, as the specification's table says.</summary>
    public static StatusCode FromHttpStatus(int httpStatus) => httpStatus switch
    {
        400 => StatusCode.Internal,
        401 => StatusCode.Unauthenticated,
        403 => StatusCode.PermissionDenied,
        404 => StatusCode.Unimplemented,
        429 or 502 or 503 or 504 => StatusCode.Unavailable,
        _ => StatusCode.Unknown,
    };

    /// <summary>Parses a <c>grpc-status</c> value.</summary>
    public static bool TryParseStatus(string? value, out StatusCode code)
    {
        code = StatusCode.Unknown;
        if (int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number is >= 0 and <= 16)
        {
            code = (StatusCode)number;
            return true;
        }

        return false;
    }
}
