// SPDX-License-Identifier: Apache-2.0

using System.Text;
using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Grpc.Tests.Reliability;
using Cicero.Time;
using Xunit.Abstractions;

namespace Cicero.Grpc.Tests.Context;

/// <summary>
/// The context header's own codec (<see cref="ContextHeader"/>: Core's context followed by the caller id): what it
/// writes it splits and reads back, and bytes a peer mangled split without throwing into a part the context reader
/// refuses with a reason or a caller id <see cref="CallerIds.IsValid"/> judges.
/// </summary>
[Collection(SerialReliabilityTests.Name)]
public sealed class ContextHeaderFuzzTests(ITestOutputHelper output)
{
    private const string IdChars = "abcdefghijklmnopqrstuvwxyz0123456789-_.:/";

    [Fact]
    public void EncodeSplitRead_RandomContextsAndCallers_RoundTrip()
    {
        var random = new Random(ReliabilitySettings.FuzzSeed);
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromHours(1));
        var codec = new RequestContextCodec(clock);
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 20_000); i > 0; i--)
        {
            var context = RandomContext(random, clock);
            var caller = random.Next(4) == 0 ? string.Empty : RandomId(random, random.Next(1, CallerIds.MaxLength + 1));

            var header = ContextHeader.Encode(codec, context, Encoding.ASCII.GetBytes(caller));
            ContextHeader.Split(header, out var contextPart, out var callerPart);

            Assert.True(header.Length <= ContextHeader.MaxLength);
            Assert.Equal(caller, Encoding.ASCII.GetString(callerPart));
            Assert.True(codec.TryRead(contextPart, out var read, out var error), error);
            Assert.Equal(context.Workflow, read.Workflow);
            Assert.Equal(context.Deadline, read.Deadline);

            // Downstream, what the caller did so far (a + b) arrives as a, and b starts again from zero.
            var sent = new ProgressDelta(context.BeforeArrival.ServiceTime + context.Progress.Current.ServiceTime, context.BeforeArrival.Load + context.Progress.Current.Load);
            Assert.Equal(sent.ServiceTime, read.BeforeArrival.ServiceTime, 1e-9);
            Assert.Equal(sent.Load, read.BeforeArrival.Load, 1e-9);
            Assert.Equal(ProgressDelta.Zero, read.Progress.Current);
            Assert.InRange(read.StartTimestamp - context.StartTimestamp, -OneTick(clock), OneTick(clock));
        }
    }

    [Fact]
    public void SplitRead_MangledHeaders_NeverThrow_AndRefuseWithAReason()
    {
        var random = new Random(ReliabilitySettings.FuzzSeed);
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromHours(1));
        var codec = new RequestContextCodec(clock);
        var report = new FuzzReport();
        for (var i = ReliabilitySettings.FuzzIterations(ciDefault: 50_000); i > 0; i--)
        {
            var valid = ContextHeader.Encode(codec, RandomContext(random, clock), Encoding.ASCII.GetBytes(RandomId(random, random.Next(1, 40))));
            var bytes = random.Next(4) switch
            {
                0 => RandomBytes(random, random.Next(ContextHeader.MaxLength + 64)),
                1 => valid.AsSpan(0, random.Next(valid.Length + 1)).ToArray(),
                2 => [.. valid, .. RandomBytes(random, random.Next(1, 300))],
                _ => Flip(random, valid),
            };

            ContextHeader.Split(bytes, out var contextPart, out var callerPart);
            Assert.Equal(bytes.Length, contextPart.Length + callerPart.Length);
            if (codec.TryRead(contextPart, out var read, out var error))
            {
                Assert.NotNull(read);
                report.Count(callerPart.IsEmpty ? "context, no caller" : CallerIds.IsValid(callerPart) ? "context and caller" : "context, caller refused");
            }
            else
            {
                Assert.False(string.IsNullOrEmpty(error));
                report.Count("refused: " + error);
            }
        }

        report.WriteTo(output, "Context header fuzz");
        Assert.True(report.Outcomes.Count >= 5, "The mangled headers reach too few of the reader's checks.");
    }

    private static RequestContext RandomContext(Random random, TimeProvider clock)
    {
        var workflow = RandomId(random, random.Next(1, Cicero.Workflows.WorkflowId.MaxLength + 1)).Replace('/', '-').Replace(':', '-');
        var elapsed = TimeSpan.FromTicks(random.NextInt64(0, TimeSpan.TicksPerMinute * 30));
        TimeSpan? deadline = random.Next(3) == 0 ? null : TimeSpan.FromTicks(random.NextInt64(1, TimeSpan.TicksPerHour * 24));
        var context = RequestContext.Create(
            workflow,
            clock.GetTimestamp() - (long)(elapsed.TotalSeconds * clock.TimestampFrequency),
            deadline,
            Counters(random),
            Counters(random),
            Counters(random));
        context.Progress.AddSequential(Counters(random));
        return context;
    }

    private static long OneTick(TimeProvider clock) => (clock.TimestampFrequency / TimeSpan.TicksPerSecond) + 1;

    private static ProgressDelta Counters(Random random) =>
        random.Next(3) == 0 ? ProgressDelta.Zero : new ProgressDelta(random.NextDouble() * 10, random.NextDouble() * 100);

    private static string RandomId(Random random, int length) =>
        new([.. Enumerable.Range(0, length).Select(_ => IdChars[random.Next(IdChars.Length)])]);

    private static byte[] RandomBytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    private static byte[] Flip(Random random, byte[] valid)
    {
        var bytes = (byte[])valid.Clone();
        for (var flips = random.Next(1, 4); flips > 0; flips--)
        {
            bytes[random.Next(bytes.Length)] = (byte)random.Next(256);
        }

        return bytes;
    }
}
