// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using System.IO.Pipelines;
using System.Text;
using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Tests.Infrastructure;
using Xunit.Abstractions;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Issue 8 item 3, piece by piece: the decoders a peer's bytes reach (trailers, binary metadata, <c>grpc-timeout</c>,
/// <c>grpc-message</c>, message frames) take random and mutated input without throwing anything but their documented
/// errors, and what their encoders write they read back.
/// </summary>
[Collection(SerialReliabilityTests.Name)]
public sealed class ProtocolFuzzTests(ITestOutputHelper output)
{
    private const int MaxMessage = 4 * 1024 * 1024;

    [Fact]
    public void TrailerCodec_RandomAndMutatedTrailers_RejectedOrSane()
    {
        var random = new Random(ReliabilitySettings.FuzzSeed);
        var report = new FuzzReport();
        var progress = TrailerCodec.Encode(new ProgressDelta(0.25, 3), 0, TimeSpan.Zero, 0, "a"u8);
        var feedback = TrailerCodec.Encode(default, 4, TimeSpan.FromMilliseconds(12), 0.5, "http://127.0.0.1:5001"u8);
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 50_000); i > 0; i--)
        {
            var source = random.Next(3) switch
            {
                0 => Bytes(random, random.Next(80)),
                1 => Mutate(random, progress),
                _ => Mutate(random, feedback),
            };
            var responseTime = TimeSpan.FromTicks(random.NextInt64(0, TimeSpan.TicksPerHour));

            var progressOk = TrailerCodec.TryDecodeProgress(source, out var p);
            var feedbackOk = TrailerCodec.TryDecodeFeedback(source, responseTime, failed: random.Next(2) == 0, out var f);

            if (progressOk)
            {
                Assert.True(double.IsFinite(p.ServiceTime) && p.ServiceTime >= 0 && double.IsFinite(p.Load) && p.Load >= 0);
            }

            if (feedbackOk)
            {
                Assert.True(double.IsFinite(f.QueueSize) && f.QueueSize >= 0 && f.ServiceTime >= TimeSpan.Zero && f.BackgroundActivity >= 0);
            }

            report.Count((progressOk ? "progress accepted" : "progress rejected") + ", " + (feedbackOk ? "feedback accepted" : "feedback rejected"));
        }

        report.WriteTo(output, "TrailerCodec fuzz");
    }

    [Fact]
    public void Base64Metadata_RandomText_DecodesOrRefusesAndRoundTrips()
    {
        var random = new Random(ReliabilitySettings.FuzzSeed);
        var report = new FuzzReport();
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 50_000); i > 0; i--)
        {
            var bytes = Bytes(random, random.Next(300));
            var encoded = Base64Metadata.Encode(bytes);
            Assert.True(Base64Metadata.TryDecode(encoded, out var decoded));
            Assert.Equal(bytes, decoded);

            var text = random.Next(2) == 0 ? Base64ishText(random) : WithOneCharInserted(random, encoded);
            if (Base64Metadata.TryDecode(text, out var value))
            {
                // Whatever it accepts it re-encodes to something it decodes to the same bytes.
                Assert.True(Base64Metadata.TryDecode(Base64Metadata.Encode(value), out var again));
                Assert.Equal(value, again);
                Assert.True(value.Length <= (text.Length / 4 * 3) + 3);
                report.Count("accepted");
            }
            else
            {
                report.Count("refused");
            }
        }

        report.WriteTo(output, "Base64Metadata fuzz");
    }

    [Fact]
    public void Base64Metadata_AgreesWithTheRuntimesReferenceDecoder()
    {
        // The transport decodes through the vectorized UTF-8 codec; Convert's UTF-16 decoder is the reference for what
        // a padded or unpadded value means, so both must accept and refuse the same text and yield the same bytes.
        var random = new Random(ReliabilitySettings.FuzzSeed);
        var report = new FuzzReport();
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 50_000); i > 0; i--)
        {
            var encoded = Base64Metadata.Encode(Bytes(random, random.Next(120)));
            var text = random.Next(3) switch
            {
                0 => Base64ishText(random),
                1 when encoded.Length > 0 => encoded.Remove(random.Next(encoded.Length), 1),
                _ => WithOneCharInserted(random, encoded),
            };

            var accepted = Base64Metadata.TryDecode(text, out var value);
            var expected = ReferenceDecode(text);
            Assert.True(accepted == expected is not null, $"'{text}': accepted {accepted}, reference {(expected is null ? "refuses" : "accepts")}");
            if (expected is not null)
            {
                Assert.Equal(expected, value);
            }

            report.Count(accepted ? "both accept" : "both refuse");
        }

        report.WriteTo(output, "Base64Metadata against Convert");
    }

    [Fact]
    public void GrpcTimeout_RandomText_ParsedOrRefusedWithAReason()
    {
        var random = new Random(ReliabilitySettings.FuzzSeed);
        var report = new FuzzReport();
        const string Chars = "0123456789HMSmunx -+.";
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 50_000); i > 0; i--)
        {
            var formatted = GrpcProtocol.FormatTimeout(TimeSpan.FromTicks(random.NextInt64(0, TimeSpan.MaxValue.Ticks)));
            Assert.True(GrpcProtocol.TryParseTimeout(formatted, out _, out var formatError), formatError);

            var text = random.Next(3) == 0
                ? FormattableString.Invariant($"{random.NextInt64(0, 1_000_000_000)}{Chars[random.Next(Chars.Length)]}")
                : new string(Enumerable.Range(0, random.Next(12)).Select(_ => Chars[random.Next(Chars.Length)]).ToArray());
            if (GrpcProtocol.TryParseTimeout(text, out var timeout, out var error))
            {
                Assert.True(timeout >= TimeSpan.Zero, text);
                Assert.Null(error);
                report.Count("parsed");
            }
            else
            {
                Assert.False(string.IsNullOrEmpty(error));
                report.Count("refused: " + error);
            }
        }

        report.WriteTo(output, "grpc-timeout fuzz");
    }

    [Fact]
    public void GrpcMessage_RandomText_DecodesWithoutThrowingAndRoundTrips()
    {
        var random = new Random(ReliabilitySettings.FuzzSeed);
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 50_000); i > 0; i--)
        {
            // Any text a status may carry (no lone surrogates: UTF-8 cannot carry them) survives the trailer.
            var message = new string(Enumerable.Range(0, random.Next(40)).Select(_ => random.Next(4) switch
            {
                0 => '%',
                1 => (char)random.Next(0x20, 0x7F),
                2 => (char)random.Next(0, 0x20),
                _ => (char)random.Next(0x80, 0xD800),
            }).ToArray());
            Assert.Equal(message, GrpcProtocol.DecodeMessage(GrpcProtocol.EncodeMessage(message)));

            // And whatever a peer sends decodes to some string.
            var garbage = new string(Enumerable.Range(0, random.Next(40)).Select(_ => "%0123456789abcdefABCDEFgz%\u00e9"[random.Next(27)]).ToArray());
            Assert.NotNull(GrpcProtocol.DecodeMessage(garbage));
        }
    }

    [Fact]
    public async Task MessageFraming_RandomAndMutatedStreams_ReadOrRefusedWithADocumentedStatus()
    {
        var random = new Random(ReliabilitySettings.FuzzSeed);
        var report = new FuzzReport();
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 20_000); i > 0; i--)
        {
            var body = Stream(random);
            var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0, minimumSegmentSize: random.Next(2) == 0 ? 16 : 4096));
            await pipe.Writer.WriteAsync(body);
            await pipe.Writer.CompleteAsync();
            var before = GC.GetAllocatedBytesForCurrentThread();
            var messages = 0;
            string outcome;
            try
            {
                while ((await MessageFraming.ReadAsync(pipe.Reader, TestMethods.Utf8, MaxMessage, CancellationToken.None)).Read)
                {
                    messages++;
                }

                outcome = "read to the end";
            }
            catch (RpcException ex) when (ex.StatusCode is StatusCode.Internal or StatusCode.Unimplemented or StatusCode.ResourceExhausted)
            {
                outcome = $"{ex.StatusCode}: {ex.Status.Detail}";
            }

            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.True(allocated <= 64 * 1024 + (8L * body.Length), $"input of {body.Length} bytes allocated {allocated} bytes ({outcome})");
            Assert.True(messages <= body.Length / FrameBuffer.HeaderLength);
            report.Count(outcome, allocated);
        }

        report.WriteTo(output, "MessageFraming fuzz");
    }

    private static byte[] Stream(Random random)
    {
        using var stream = new MemoryStream();
        Span<byte> header = stackalloc byte[FrameBuffer.HeaderLength];
        for (var frames = random.Next(4); frames > 0; frames--)
        {
            var payload = Encoding.UTF8.GetBytes(new string('m', random.Next(random.Next(10) == 0 ? 70_000 : 100)));
            header[0] = random.Next(10) == 0 ? (byte)random.Next(256) : (byte)0;
            var length = random.Next(6) switch
            {
                0 => (uint)random.NextInt64(0, uint.MaxValue + 1L),
                1 => (uint)(payload.Length + random.Next(-3, 4)),
                2 => MaxMessage + (uint)random.Next(0, 2),
                _ => (uint)payload.Length,
            };
            BinaryPrimitives.WriteUInt32BigEndian(header[1..], length);
            stream.Write(header);
            stream.Write(payload);
        }

        var bytes = stream.ToArray();
        return random.Next(5) == 0 && bytes.Length > 0 ? bytes.AsSpan(0, random.Next(bytes.Length)).ToArray() : bytes;
    }

    // Base64's alphabet, its padding, the URL-safe variant's characters, white space and a few that are never valid.
    private const string Base64ishAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \t!%é";

    private static string Base64ishText(Random random) =>
        new(Enumerable.Range(0, random.Next(64)).Select(_ => Base64ishAlphabet[random.Next(Base64ishAlphabet.Length)]).ToArray());

    private static string WithOneCharInserted(Random random, string text) =>
        text.Insert(random.Next(text.Length + 1), Base64ishAlphabet[random.Next(Base64ishAlphabet.Length)].ToString());

    private static byte[]? ReferenceDecode(string text)
    {
        var trimmed = text.TrimEnd('=');
        if (text.Length - trimmed.Length > 2 || trimmed.Length % 4 == 1)
        {
            return null;
        }

        var padded = trimmed.PadRight((trimmed.Length + 3) / 4 * 4, '=');
        var bytes = new byte[trimmed.Length * 3 / 4];
        return Convert.TryFromBase64String(padded, bytes, out var written) && written == bytes.Length ? bytes : null;
    }

    private static byte[] Bytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    private static byte[] Mutate(Random random, byte[] valid)
    {
        var bytes = random.Next(5) == 0 ? valid.AsSpan(0, random.Next(valid.Length + 1)).ToArray() : (byte[])valid.Clone();
        for (var flips = random.Next(0, 4); flips > 0 && bytes.Length > 0; flips--)
        {
            bytes[random.Next(bytes.Length)] = (byte)random.Next(256);
        }

        return bytes;
    }
}
