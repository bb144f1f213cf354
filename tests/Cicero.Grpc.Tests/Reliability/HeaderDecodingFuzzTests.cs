// SPDX-License-Identifier: Apache-2.0

using System.Text;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Context;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Time;
using Grpc.Core;
using Xunit.Abstractions;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Issue 8 item 3 on grpc-dotnet: random and mangled <c>cicero-ctx-bin</c> values reach the server interceptor both as
/// ASP.NET Core delivers them (raw header text, which Cicero decodes itself) and as custom hosts do (binary metadata),
/// at an entry point and inside the mesh, with deadlines past, near, far and absent. Only the documented outcomes come
/// back: OK with the handler run once, or INVALID_ARGUMENT naming the header, RESOURCE_EXHAUSTED or DEADLINE_EXCEEDED
/// with a known drop reason, before the handler runs. Nothing else is thrown.
/// </summary>
/// <remarks>
/// CI runs 20,000 inputs; <c>CICERO_FUZZ_ITERATIONS</c> runs longer. A failure names the seed and the case index.
/// </remarks>
[Collection(SerialReliabilityTests.Name)]
public sealed class HeaderDecodingFuzzTests(ITestOutputHelper output)
{
    internal const string TenantHeader = "x-tenant";
    internal const string LimitedTenant = "limited";

    // Base64's alphabet, its padding, the URL-safe variant's characters, white space and a few that are never valid.
    private const string Base64ishAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \t!%é";

    [Fact]
    public async Task Interceptor_RandomAndMangledContextHeaders_OnlyDocumentedOutcomes()
    {
        var seed = ReliabilitySettings.FuzzSeed;
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromDays(1));
        using var entry = new CiceroServices(o => { o.Classifier = WorkflowClassifiers.ByHeader(TenantHeader); o.QueueForAdmission = false; }, clock);
        using var interior = new CiceroServices(o => { o.IsEntryPoint = false; o.QueueForAdmission = false; }, clock);
        foreach (var server in new[] { entry, interior })
        {
            // One tenant is out of tokens: its calls are dropped at once.
            server.Runtime.Admission.Configure(LimitedTenant, new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        }

        var generator = new ContextHeaderGenerator(seed, clock, entry.Runtime.Codec);
        var report = new FuzzReport();
        for (var i = 0; i < ReliabilitySettings.FuzzIterations(ciDefault: 20_000); i++)
        {
            var input = generator.Next(i);
            var server = input.Interior ? interior : entry;
            var handled = 0;
            string outcome;
            try
            {
                var response = await server.Interceptor.UnaryServerHandler("x", input.Call, (string request, ServerCallContext _) =>
                {
                    handled++;
                    Assert.NotNull(CiceroContext.Current);
                    return Task.FromResult(request);
                });
                Assert.Equal("x", response);
                Assert.True(handled == 1, $"Seed {seed}, {input}: handler ran {handled} times.");
                Assert.True(CiceroTrailers.TryRead(input.Call.ResponseTrailers, out _), $"Seed {seed}, {input}: no result trailer.");
                outcome = "OK";
            }
            catch (RpcException ex)
            {
                Assert.True(handled == 0, $"Seed {seed}, {input}: {ex.StatusCode} after the handler ran.");
                outcome = Check(seed, input, ex);
            }
            catch (Exception ex)
            {
                Assert.Fail($"Seed {seed}, {input}: unhandled {ex}");
                throw;
            }

            report.Count(outcome);
        }

        report.WriteTo(output, $"Context header fuzz through the interceptor, seed {seed}");
        Assert.Equal(0, entry.Interceptor.InFlight);
        Assert.Equal(0, interior.Interceptor.InFlight);
        Assert.True(report.Outcomes.ContainsKey("OK"), "No input was served: the generator no longer reaches the handler.");
        Assert.True(report.Outcomes.Keys.Count(k => k.StartsWith("InvalidArgument", StringComparison.Ordinal)) >= 5, "Too few kinds of refusal: the generator no longer reaches the decoders.");
        Assert.Contains(report.Outcomes.Keys, k => k.StartsWith("ResourceExhausted", StringComparison.Ordinal));
        Assert.Contains(report.Outcomes.Keys, k => k.StartsWith("DeadlineExceeded", StringComparison.Ordinal));
    }

    [Fact]
    public void Decode_AgreesWithGrpcDotnetsBinaryHeaderReading_AndNeverThrows()
    {
        // Cicero decodes the raw header through the vectorized UTF-8 codec; grpc-dotnet's own reading of binary metadata
        // is the reference for what a padded or unpadded value means, so both must accept and refuse the same text and
        // yield the same bytes, including for a final character whose unused bits are not zero (which no encoder writes,
        // and the vectorized codec alone would refuse); those are counted apart.
        var random = new Random(ReliabilitySettings.FuzzSeed);
        var report = new FuzzReport();
        Span<byte> destination = stackalloc byte[1024];
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 50_000); i > 0; i--)
        {
            var bytes = new byte[random.Next(120)];
            random.NextBytes(bytes);
            var encoded = random.Next(2) == 0 ? Convert.ToBase64String(bytes) : Convert.ToBase64String(bytes).TrimEnd('=');
            var text = random.Next(4) switch
            {
                0 => new string([.. Enumerable.Range(0, random.Next(64)).Select(_ => Base64ishAlphabet[random.Next(Base64ishAlphabet.Length)])]),
                1 when encoded.Length > 0 => encoded.Remove(random.Next(encoded.Length), 1),
                2 => encoded,
                _ => encoded.Insert(random.Next(encoded.Length + 1), Base64ishAlphabet[random.Next(Base64ishAlphabet.Length)].ToString()),
            };

            var outcome = IncomingHeaders.Decode(text, destination, out var length);
            var expected = ReferenceDecode(text.Trim());
            var accepted = outcome == IncomingHeaders.Outcome.Found;
            if (expected is not null && !IsCanonical(text, expected))
            {
                report.Count("non-canonical: both accept");
            }

            Assert.True(accepted == expected is not null, $"'{text}': {outcome}, reference {(expected is null ? "refuses" : "accepts")}");
            if (expected is not null)
            {
                Assert.Equal(expected, destination[..length].ToArray());
            }

            report.Count(accepted ? "both accept" : "both refuse");
        }

        report.WriteTo(output, "Header base64 against grpc-dotnet's reading");
        Assert.True(report.Outcomes.ContainsKey("both accept") && report.Outcomes.ContainsKey("both refuse"));
    }

    [Fact]
    public void Decode_ValuesLongerThanTheBuffer_AreTooLong_NotRead()
    {
        Span<byte> destination = stackalloc byte[ContextHeader.MaxLength];
        var text = Convert.ToBase64String(new byte[ContextHeader.MaxLength + 3]);

        Assert.Equal(IncomingHeaders.Outcome.TooLong, IncomingHeaders.Decode(text, destination, out var length));
        Assert.True(length > ContextHeader.MaxLength);
        Assert.Equal(IncomingHeaders.Outcome.Found, IncomingHeaders.Decode(Convert.ToBase64String(new byte[ContextHeader.MaxLength]), destination, out length));
        Assert.Equal(ContextHeader.MaxLength, length);
    }

    private static string Check(int seed, FuzzCase input, RpcException ex)
    {
        switch (ex.StatusCode)
        {
            case StatusCode.InvalidArgument:
                Assert.True(ex.Status.Detail.Contains(CiceroMetadataKeys.Context, StringComparison.Ordinal), $"Seed {seed}, {input}: '{ex.Status.Detail}'.");
                return "InvalidArgument: " + ex.Status.Detail;
            case StatusCode.ResourceExhausted or StatusCode.DeadlineExceeded:
                var wire = ex.Trailers.GetValue(CiceroMetadataKeys.DropReason);
                Assert.True(DropReasonNames.TryParse(wire, out var reason), $"Seed {seed}, {input}: drop reason '{wire}'.");
                Assert.Equal(DropReasonNames.ToStatusCode(reason), ex.StatusCode);
                return $"{ex.StatusCode}: {wire}";
            default:
                Assert.Fail($"Seed {seed}, {input}: undocumented status {ex.StatusCode} '{ex.Status.Detail}'.");
                return string.Empty;
        }
    }

    /// <summary>Whether <paramref name="text"/> is what an encoder writes for <paramref name="bytes"/> (padding and white space aside).</summary>
    private static bool IsCanonical(string text, byte[] bytes) =>
        string.Equals(
            Convert.ToBase64String(bytes).TrimEnd('='),
            string.Concat(text.Where(c => c is not (' ' or '\t' or '\r' or '\n'))).TrimEnd('='),
            StringComparison.Ordinal);

    /// <summary>
    /// The reference: how grpc-dotnet itself reads a binary header into <see cref="ServerCallContext.RequestHeaders"/>
    /// (missing padding added by the length modulo 4, then <see cref="Convert"/>), so that the ASP.NET Core path and
    /// the metadata path accept the same values.
    /// </summary>
    private static byte[]? ReferenceDecode(string text)
    {
        var padded = (text.Length % 4) switch
        {
            0 => text,
            2 => text + "==",
            3 => text + "=",
            _ => null,
        };
        var bytes = new byte[text.Length];
        return padded is not null && Convert.TryFromBase64String(padded, bytes, out var written) ? bytes[..written] : null;
    }

    /// <summary>One generated call: which server it goes to and its fake context, headers already in place.</summary>
    internal sealed record FuzzCase(int Index, bool Interior, TestServerCallContext Call, string Header)
    {
        public override string ToString() => FormattableString.Invariant(
            $"case {Index}: {(Interior ? "interior" : "entry")}, {(Call.Http is null ? "metadata" : "http")}, deadline {Call.Deadline:O}, header '{(Header.Length > 120 ? Header[..120] + "..." : Header)}'");
    }

    /// <summary>Random and mangled context headers, from one seed, so a failing case is reproduced by its index.</summary>
    private sealed class ContextHeaderGenerator(int seed, TimeProvider clock, RequestContextCodec codec)
    {
        private static readonly string[] Tenants = ["a", "b", LimitedTenant, "cicero.overflow", "anonymous", "tenant-1"];

        private readonly Random _random = new(seed);

        public FuzzCase Next(int index)
        {
            var interior = _random.Next(2) == 0;
            var now = clock.GetUtcNow().UtcDateTime;
            var deadline = _random.Next(8) switch
            {
                0 => now.AddMilliseconds(-_random.Next(0, 10_000)),
                1 => now.AddHours(48),
                2 or 3 => DateTime.MaxValue,
                _ => now.AddMilliseconds(_random.Next(1, 60_000)),
            };
            var headers = new Metadata();
            if (_random.Next(10) < 7)
            {
                headers.Add(TenantHeader, _random.Next(4) == 0 ? "t" + _random.Next(1000).ToString(System.Globalization.CultureInfo.InvariantCulture) : Tenants[_random.Next(Tenants.Length)]);
            }

            var call = new TestServerCallContext(deadline: deadline, requestHeaders: headers);
            string described;
            if (_random.Next(2) == 0)
            {
                // As ASP.NET Core delivers it: text Cicero decodes itself, possibly twice.
                var text = Text();
                described = text;
                if (_random.Next(20) == 0)
                {
                    call.WithHttpHeader(CiceroMetadataKeys.Context, text, Text());
                }
                else if (_random.Next(10) != 0)
                {
                    call.WithHttpHeader(CiceroMetadataKeys.Context, text);
                }
                else
                {
                    call.WithHttpHeader("x-other", text);
                }
            }
            else
            {
                var bytes = Bytes();
                described = Convert.ToHexString(bytes.AsSpan(0, Math.Min(bytes.Length, 60)));
                if (_random.Next(10) != 0)
                {
                    headers.Add(CiceroMetadataKeys.Context, bytes);
                }
            }

            return new FuzzCase(index, interior, call, described);
        }

        private string Text() => _random.Next(10) switch
        {
            0 or 1 or 2 => Convert.ToBase64String(Bytes()),
            3 => Convert.ToBase64String(Bytes()).TrimEnd('='),
            4 => " " + Convert.ToBase64String(ValidHeader()) + "\t",
            5 => new string([.. Enumerable.Range(0, _random.Next(80)).Select(_ => Base64ishAlphabet[_random.Next(Base64ishAlphabet.Length)])]),
            6 => Convert.ToBase64String(ValidHeader()).Insert(_random.Next(4), Base64ishAlphabet[_random.Next(Base64ishAlphabet.Length)].ToString()),
            7 => new string('A', _random.Next(600, 5000)),
            8 => string.Empty,
            _ => Convert.ToBase64String(ValidHeader()) + "," + Convert.ToBase64String(ValidHeader()),
        };

        private byte[] Bytes() => _random.Next(8) switch
        {
            0 or 1 or 2 => ValidHeader(),
            3 => Flip(ValidHeader()),
            4 => Resize(ValidHeader()),
            5 => Random(_random.Next(RequestContextCodec.MaxEncodedLength + 1)),
            6 => Random(_random.Next(ContextHeader.MaxLength, 4096)),
            _ => [.. ValidHeader(), .. Encoding.UTF8.GetBytes(_random.Next(2) == 0 ? "bad caller" : "é")],
        };

        private byte[] ValidHeader()
        {
            var workflow = _random.Next(3) == 0 ? Tenants[_random.Next(Tenants.Length)] : "w" + _random.Next(3000).ToString(System.Globalization.CultureInfo.InvariantCulture);
            TimeSpan? deadline = _random.Next(3) == 0 ? null : TimeSpan.FromMilliseconds(_random.Next(1, 86_400_000));
            var elapsed = TimeSpan.FromMilliseconds(_random.Next(0, 30_000));
            var context = RequestContext.Create(
                workflow,
                clock.GetTimestamp() - (long)(elapsed.TotalSeconds * clock.TimestampFrequency),
                deadline,
                new ProgressDelta(_random.NextDouble(), _random.Next(10)),
                ProgressDelta.Zero,
                default);
            var caller = _random.Next(3) == 0 ? string.Empty : "http://10.0.0." + _random.Next(256).ToString(System.Globalization.CultureInfo.InvariantCulture) + ":5000";
            return ContextHeader.Encode(codec, context, Encoding.ASCII.GetBytes(caller));
        }

        private byte[] Flip(byte[] bytes)
        {
            for (var flips = _random.Next(1, 4); flips > 0; flips--)
            {
                bytes[_random.Next(bytes.Length)] = (byte)_random.Next(256);
            }

            return bytes;
        }

        private byte[] Resize(byte[] bytes)
        {
            var resized = new byte[_random.Next(2) == 0 ? _random.Next(bytes.Length) : bytes.Length + _random.Next(1, 300)];
            bytes.AsSpan(0, Math.Min(bytes.Length, resized.Length)).CopyTo(resized);
            _random.NextBytes(resized.AsSpan(Math.Min(bytes.Length, resized.Length)));
            return resized;
        }

        private byte[] Random(int length)
        {
            var bytes = new byte[length];
            _random.NextBytes(bytes);
            return bytes;
        }
    }
}
