// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using System.Text;
using Cicero.Context;
using Cicero.Grpc.Protocol;
using Cicero.Time;
using Microsoft.Extensions.Primitives;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>The four call kinds the fuzz harness maps, one handler each.</summary>
internal enum FuzzMethod
{
    Unary,
    ServerStreaming,
    ClientStreaming,
    Duplex,
}

/// <summary>One generated input: which server and method it goes to, and what the client sends.</summary>
internal sealed record FuzzCase(int Index, bool Interior, FuzzMethod Method, InProcessRequest Request)
{
    public string Describe()
    {
        var builder = new StringBuilder();
        builder.Append(FormattableString.Invariant($"case {Index}: {(Interior ? "interior" : "entry")} {Method}, content-type '{Request.ContentType}', body {Request.Body.Length} bytes"));
        builder.Append(FormattableString.Invariant($" [{Convert.ToHexString(Request.Body.AsSpan(0, Math.Min(Request.Body.Length, 16)))}...]"));
        builder.Append(Request.LeaveBodyOpen ? ", body left open" : string.Empty).Append(Request.AbortIfPending ? ", abort if pending" : string.Empty);
        foreach (var (name, values) in Request.Headers)
        {
            var text = values.ToString();
            builder.Append("; ").Append(name).Append(": ").Append(text.Length > 80 ? text[..80] + "..." : text);
        }

        return builder.ToString();
    }
}

/// <summary>
/// Generates random and mutated gRPC requests from one seed: context headers valid, mutated, oversized, garbage or not
/// base64; callers, tenants and other headers with odd names and values; <c>grpc-timeout</c> strings valid and not;
/// content types; and bodies of frames with wrong flags, lengths, truncation and garbage. The same seed gives the
/// same sequence, so a failing case is reproduced by its seed and index.
/// </summary>
internal sealed class GrpcInputFuzzer
{
    public const string TenantHeader = "x-tenant";
    public const string LimitedTenant = "limited";

    private const string Base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    private const string NotBase64 = "!@#$%^&*()<>?~`'\" \t-_.:;=,\\é";
    private const string TimeoutChars = "0123456789HMSmunx -+.";
    private const int DefaultMaxMessage = 4 * 1024 * 1024;

    private static readonly string[] Tenants = ["a", "b", "tenant-1", "tenant-2", LimitedTenant, "cicero.overflow", "anonymous"];

    private static readonly string[] ContentTypes =
    [
        "application/grpc+proto", "application/grpc;charset=utf-8", "application/grpcx", "application/json", "text/plain",
        string.Empty, "APPLICATION/GRPC", "application/grpc-web", "application/grpc+", "application",
    ];

    private static readonly string[] OddHeaderNames =
    [
        "te", "grpc-encoding", "grpc-accept-encoding", "grpc-status", "grpc-message", "user-agent", ":authority",
        "content-length", "host", "x-Mixed-Case", "x-custom-bin", "cicero-result-bin", "cicero-ctx-bin",
        "cicero-drop-reason", "cicero-rate-token", "cicero-caller", "-bin", "x",
    ];

    private static readonly string[] ExtremeTimeouts = ["99999999H", "99999999M", "99999999S", "99999999m", "99999999u", "99999999n", "0n", "0S", "1n", "00000000H"];

    private readonly Random _random;
    private readonly VirtualTimeProvider _clock = new();
    private readonly RequestContextCodec _codec;
    private int _index;

    public GrpcInputFuzzer(int seed)
    {
        _random = new Random(seed);
        _clock.Advance(TimeSpan.FromHours(1));
        _codec = new RequestContextCodec(_clock);
    }

    public FuzzCase Next()
    {
        var interior = _random.Next(2) == 0;
        var method = _random.Next(20) switch
        {
            < 11 => FuzzMethod.Unary,
            < 14 => FuzzMethod.ServerStreaming,
            < 17 => FuzzMethod.ClientStreaming,
            _ => FuzzMethod.Duplex,
        };

        // A stalled client must end somehow: it goes away, or its own short deadline passes.
        var stall = _random.Next(1000) < 2;
        var abort = stall && _random.Next(4) != 0;
        var request = new InProcessRequest
        {
            ContentType = _random.Next(100) switch
            {
                < 92 => GrpcProtocol.ContentType,
                < 95 => "application/grpc+proto",
                < 99 => Pick(ContentTypes),
                _ => null,
            },
            Body = Body(method is FuzzMethod.ClientStreaming or FuzzMethod.Duplex),
            LeaveBodyOpen = stall,
            AbortIfPending = abort,
        };

        AddHeaders(request.Headers);
        if (stall && !abort)
        {
            request.Headers.RemoveAll(h => string.Equals(h.Key, GrpcProtocol.TimeoutHeader, StringComparison.OrdinalIgnoreCase));
            request.Headers.Add(new(GrpcProtocol.TimeoutHeader, FormattableString.Invariant($"{_random.Next(1, 10)}m")));
        }

        return new FuzzCase(_index++, interior, method, request);
    }

    private void AddHeaders(List<KeyValuePair<string, StringValues>> headers)
    {
        if (_random.Next(100) < 70)
        {
            headers.Add(new(CiceroMetadataKeys.Context, ContextHeader()));
        }

        if (_random.Next(100) < 60)
        {
            headers.Add(new(GrpcProtocol.TimeoutHeader, Timeout()));
        }

        if (_random.Next(100) < 70)
        {
            headers.Add(new(TenantHeader, _random.Next(10) switch
            {
                < 6 => Pick(Tenants),
                < 8 => "t" + _random.Next(100_000).ToString(System.Globalization.CultureInfo.InvariantCulture),
                _ => Text(_random.Next(2) == 0 ? 200 : 20, asciiOnly: false),
            }));
        }

        for (var i = _random.Next(4); i > 0; i--)
        {
            var name = _random.Next(3) == 0 ? Pick(OddHeaderNames) : "x-" + Token(_random.Next(1, 12)) + (_random.Next(2) == 0 ? Metadata.BinarySuffix : string.Empty);
            var value = name.EndsWith(Metadata.BinarySuffix, StringComparison.OrdinalIgnoreCase)
                ? Base64Value(RandomBytes(_random.Next(64)))
                : Text(_random.Next(60), asciiOnly: _random.Next(3) != 0);
            headers.Add(new(name, _random.Next(5) == 0 ? new StringValues([value, Text(8, asciiOnly: true)]) : new StringValues(value)));
        }
    }

    /// <summary>A caller id after the context, as clients send it: often none, sometimes too long or not ASCII.</summary>
    private byte[] WithCaller(byte[] context) => _random.Next(100) < 60
        ? context
        : [.. context, .. System.Text.Encoding.UTF8.GetBytes(Text(_random.Next(10) == 0 ? 1000 : 40, asciiOnly: _random.Next(4) != 0))];

    private string ContextHeader() => _random.Next(10) switch
    {
        0 or 1 => Base64Value(WithCaller(ValidContext())),
        2 => Convert.ToBase64String(ValidContext()),
        3 or 4 => Base64Value(Mutate(ValidContext())),
        5 => Base64Value(Resize(ValidContext())),
        6 => Base64Value(RandomBytes(_random.Next(RequestContextCodec.MaxEncodedLength + 1, 4096))),
        7 => Base64Value(RandomBytes(_random.Next(RequestContextCodec.MaxEncodedLength + 1))),
        8 => BadBase64(),
        _ => _random.Next(3) switch
        {
            0 => string.Empty,
            1 => Base64Value(ValidContext()) + "," + Base64Value(RandomBytes(_random.Next(40))),
            _ => " , " + Base64Value(ValidContext()) + " ,",
        },
    };

    private byte[] ValidContext()
    {
        var workflow = _random.Next(3) == 0 ? Pick(Tenants) : "w" + _random.Next(5000).ToString(System.Globalization.CultureInfo.InvariantCulture);
        if (_random.Next(50) == 0)
        {
            workflow = new string('w', Cicero.Workflows.WorkflowId.MaxLength);
        }

        var elapsed = TimeSpan.FromTicks(_random.NextInt64(0, TimeSpan.TicksPerSecond * 30));
        TimeSpan? deadline = _random.Next(3) == 0 ? null : TimeSpan.FromTicks(_random.NextInt64(1, TimeSpan.TicksPerHour * 24));
        var context = RequestContext.Create(
            workflow,
            _clock.GetTimestamp() - (long)(elapsed.TotalSeconds * _clock.TimestampFrequency),
            deadline,
            Counters(),
            Counters(),
            Counters());
        return _codec.Encode(context);
    }

    private ProgressDelta Counters() => _random.Next(3) == 0 ? ProgressDelta.Zero : new ProgressDelta(_random.NextDouble() * 10, _random.NextDouble() * 100);

    private byte[] Mutate(byte[] bytes)
    {
        for (var flips = _random.Next(1, 5); flips > 0; flips--)
        {
            bytes[_random.Next(bytes.Length)] = _random.Next(4) == 0 ? (byte)(1 << _random.Next(8)) : (byte)_random.Next(256);
        }

        return bytes;
    }

    private byte[] Resize(byte[] bytes)
    {
        var length = _random.Next(2) == 0 ? _random.Next(bytes.Length) : bytes.Length + _random.Next(1, 40);
        var resized = new byte[length];
        bytes.AsSpan(0, Math.Min(length, bytes.Length)).CopyTo(resized);
        _random.NextBytes(resized.AsSpan(Math.Min(length, bytes.Length)));
        return resized;
    }

    private string Timeout() => _random.Next(10) switch
    {
        < 4 => FormattableString.Invariant($"{_random.Next(1, 100_000_000)}{"HMSmun"[_random.Next(6)]}"),
        4 => new string(Enumerable.Range(0, _random.Next(13)).Select(_ => TimeoutChars[_random.Next(TimeoutChars.Length)]).ToArray()),
        5 => FormattableString.Invariant($"{_random.NextInt64(100_000_000, long.MaxValue)}S"),
        6 => string.Empty,
        7 => Text(_random.Next(12), asciiOnly: false),
        _ => Pick(ExtremeTimeouts),
    };

    private byte[] Body(bool stream)
    {
        if (_random.Next(40) == 0)
        {
            return RandomBytes(_random.Next(64));
        }

        using var body = new MemoryStream();
        var frames = stream ? _random.Next(4) : _random.Next(10) == 0 ? _random.Next(3) : 1;
        for (var i = 0; i < frames; i++)
        {
            WriteFrame(body);
        }

        var bytes = body.ToArray();
        return _random.Next(12) switch
        {
            0 when bytes.Length > 0 => bytes.AsSpan(0, _random.Next(bytes.Length)).ToArray(),
            1 => [.. bytes, .. RandomBytes(_random.Next(1, 10))],
            _ => bytes,
        };
    }

    private void WriteFrame(MemoryStream body)
    {
        var payload = _random.Next(20) switch
        {
            0 => RandomBytes(_random.Next(256)),
            1 => Encoding.UTF8.GetBytes(Text(_random.Next(16_384), asciiOnly: false)),
            _ => Encoding.UTF8.GetBytes(Text(_random.Next(64), asciiOnly: _random.Next(2) == 0)),
        };
        Span<byte> header = stackalloc byte[FrameBuffer.HeaderLength];
        header[0] = _random.Next(15) == 0 ? (byte)(_random.Next(3) switch { 0 => 1, 1 => 2, _ => _random.Next(256) }) : (byte)0;
        var length = (uint)payload.Length;
        if (_random.Next(8) == 0)
        {
            length = _random.Next(6) switch
            {
                0 => uint.MaxValue,
                1 => DefaultMaxMessage + 1,
                2 => DefaultMaxMessage,
                3 => (uint)_random.NextInt64(0, uint.MaxValue),
                4 => length + (uint)_random.Next(1, 100),
                _ => length > 0 ? length - (uint)_random.Next(1, (int)Math.Min(length, 100) + 1) : 0,
            };
        }

        BinaryPrimitives.WriteUInt32BigEndian(header[1..], length);
        body.Write(header);
        body.Write(payload);
    }

    private string BadBase64() => _random.Next(4) switch
    {
        0 => new string(Enumerable.Range(0, _random.Next(1, 40)).Select(_ => NotBase64[_random.Next(NotBase64.Length)]).ToArray()),
        1 => new string(Enumerable.Range(0, (4 * _random.Next(1, 20)) + 1).Select(_ => Base64Alphabet[_random.Next(64)]).ToArray()),
        2 => "ab=cd",
        _ => Base64Value(ValidContext()).Insert(_random.Next(4), NotBase64[_random.Next(NotBase64.Length)].ToString()),
    };

    private static string Base64Value(byte[] bytes) => Base64Metadata.Encode(bytes);

    private byte[] RandomBytes(int length)
    {
        var bytes = new byte[length];
        _random.NextBytes(bytes);
        return bytes;
    }

    private string Token(int length) =>
        new(Enumerable.Range(0, length).Select(_ => "abcdefghijklmnopqrstuvwxyz0123456789-_."[_random.Next(39)]).ToArray());

    private string Text(int maxLength, bool asciiOnly)
    {
        var chars = new char[_random.Next(maxLength + 1)];
        for (var i = 0; i < chars.Length; i++)
        {
            chars[i] = asciiOnly ? (char)_random.Next(0x20, 0x7F) : (char)_random.Next(1, 0xD7FF);
        }

        return new string(chars);
    }

    private T Pick<T>(T[] values) => values[_random.Next(values.Length)];
}
