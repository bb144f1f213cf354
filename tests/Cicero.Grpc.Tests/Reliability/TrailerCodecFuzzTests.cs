// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Context;
using Grpc.Core;
using Xunit.Abstractions;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Issue 8 item 3, the result trailer: whatever bytes a callee sends, the caller's decoders either refuse them or
/// return finite, non-negative values, so a misbehaving callee cannot poison the caller's model or balancer.
/// </summary>
[Collection(SerialReliabilityTests.Name)]
public sealed class TrailerCodecFuzzTests(ITestOutputHelper output)
{
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
            var decoded = DecodedResultTrailer.Decode(source);
            var feedbackOk = decoded.IsValid;
            var f = decoded.Feedback(responseTime);
            var resultOk = CiceroTrailers.TryRead(new Metadata { { CiceroMetadataKeys.Result, source } }, out var result);

            Assert.Equal(progressOk, feedbackOk);
            Assert.Equal(progressOk, resultOk);
            if (progressOk)
            {
                Assert.True(double.IsFinite(p.ServiceTime) && p.ServiceTime >= 0 && double.IsFinite(p.Load) && p.Load >= 0);
                Assert.True(double.IsFinite(f.QueueSize) && f.QueueSize >= 0 && f.ServiceTime >= TimeSpan.Zero && f.BackgroundActivity >= 0);
                Assert.Equal(p, result.Progress);
                Assert.Equal(p, decoded.Progress);
                Assert.Equal(result.Instance, System.Text.Encoding.ASCII.GetString(decoded.Instance.Span));
                Assert.True(result.Instance.Length == 0 || CallerIds.IsValid(System.Text.Encoding.ASCII.GetBytes(result.Instance)));
            }

            report.Count(progressOk ? "accepted" : "rejected");
        }

        report.WriteTo(output, "TrailerCodec fuzz");
        Assert.Equal(2, report.Outcomes.Count);
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
