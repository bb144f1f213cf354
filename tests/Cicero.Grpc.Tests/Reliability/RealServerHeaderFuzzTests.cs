// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Grpc.Tests.Protos;
using Google.Protobuf;
using Grpc.Core;
using Xunit.Abstractions;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// The context header as a hostile client writes it, over HTTP/2 to a real Kestrel server: raw text that is not
/// base64, over-long, repeated, or a valid context with a bad caller id. grpc-dotnet hands the call to Cicero's global
/// interceptor, which answers INVALID_ARGUMENT (or serves the call); never UNKNOWN or INTERNAL, and the server keeps
/// serving. Bounded: a few hundred requests.
/// </summary>
[Collection(SerialReliabilityTests.Name)]
public sealed class RealServerHeaderFuzzTests(ITestOutputHelper output)
{
    private const string Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ !%~";

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task RawHeaderValues_AreServedOrInvalidArgument_AndTheServerKeepsServing(bool interior)
    {
        var handled = 0;
        await using var host = await TestHost.StartProbeAsync(
            o => o.IsEntryPoint = !interior,
            new ProbeHandlers { Work = (request, _) => { Interlocked.Increment(ref handled); return Task.FromResult(request); } });
        using var http = new HttpClient { BaseAddress = host.Address, Timeout = TimeSpan.FromSeconds(30) };
        var random = new Random(ReliabilitySettings.FuzzSeed + (interior ? 1 : 0));
        var report = new FuzzReport();
        var ok = 0;
        for (var i = 0; i < 200; i++)
        {
            var values = Values(random);
            var (status, message) = await CallAsync(http, values);
            Assert.True(
                status is StatusCode.OK or StatusCode.InvalidArgument,
                FormattableString.Invariant($"case {i}, header [{string.Join(" | ", values)}]: {status} '{message}'"));
            if (status == StatusCode.InvalidArgument)
            {
                Assert.Contains("cicero-ctx-bin", message, StringComparison.Ordinal);
            }
            else
            {
                ok++;
            }

            report.Count(status == StatusCode.OK ? "OK" : "INVALID_ARGUMENT: " + message);
        }

        report.WriteTo(output, $"Raw header fuzz over HTTP/2, {(interior ? "interior" : "entry")}");
        Assert.Equal(ok, Volatile.Read(ref handled));
        Assert.True(report.Outcomes.Count >= 3, "The raw values reach too few of the checks.");

        // And a well-behaved client is still served.
        using var channel = host.CreateChannel();
        Assert.Equal("after", (await TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("after"))).Value);
    }

    private static string[] Values(Random random)
    {
        var valid = Convert.ToBase64String(ValidHeader(random.Next(3) == 0 ? "bad caller" : "http://10.0.0.1:5000"));
        string One() => random.Next(7) switch
        {
            0 => valid,
            1 => valid.TrimEnd('='),
            2 => new string([.. Enumerable.Range(0, random.Next(1, 60)).Select(_ => Alphabet[random.Next(Alphabet.Length)])]),
            3 => new string('A', random.Next(700, 3000)),
            4 => valid.Insert(random.Next(valid.Length), Alphabet[random.Next(Alphabet.Length)].ToString(CultureInfo.InvariantCulture)),
            5 => Convert.ToBase64String(RandomBytes(random, random.Next(1, 300))),
            _ => valid + "," + valid,
        };

        // HTTP/2 refuses values with white space at either end (a malformed request, before gRPC sees it).
        return random.Next(10) == 0 ? [One().Trim(), One().Trim()] : [One().Trim()];
    }

    private static byte[] ValidHeader(string caller)
    {
        var codec = new Cicero.Context.RequestContextCodec(TimeProvider.System);
        var context = Cicero.Context.RequestContext.Start("fuzzed", TimeProvider.System, TimeSpan.FromSeconds(5));
        return [.. codec.Encode(context), .. System.Text.Encoding.ASCII.GetBytes(caller)];
    }

    private static byte[] RandomBytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    /// <summary>One unary call to <c>cicero.test.Probe/Work</c>, framed by hand, with the header values as given.</summary>
    private static async Task<(StatusCode Status, string Message)> CallAsync(HttpClient http, string[] contextValues)
    {
        var payload = new Text { Value = "x" }.ToByteArray();
        var body = new byte[5 + payload.Length];
        BinaryPrimitives.WriteUInt32BigEndian(body.AsSpan(1), (uint)payload.Length);
        payload.CopyTo(body, 5);
        using var request = new HttpRequestMessage(HttpMethod.Post, "cicero.test.Probe/Work")
        {
            Content = new ByteArrayContent(body),
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/grpc");
        request.Headers.TryAddWithoutValidation("te", "trailers");
        request.Headers.TryAddWithoutValidation("grpc-timeout", "10S");
        Assert.True(request.Headers.TryAddWithoutValidation("cicero-ctx-bin", contextValues));
        using var response = await http.SendAsync(request);
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"HTTP {response.StatusCode} for [{string.Join(" | ", contextValues)}]: {await response.Content.ReadAsStringAsync()}");
        await response.Content.ReadAsByteArrayAsync();

        // A trailers-only response carries the status in its headers.
        var headers = response.TrailingHeaders.Contains("grpc-status") ? response.TrailingHeaders : response.Headers;
        var status = (StatusCode)int.Parse(headers.GetValues("grpc-status").Single(), CultureInfo.InvariantCulture);
        var message = headers.TryGetValues("grpc-message", out var messages) ? Uri.UnescapeDataString(messages.Single()) : string.Empty;
        return (status, message);
    }
}
