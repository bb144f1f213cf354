// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Time;

namespace Cicero.Tests.Reliability;

/// <summary>
/// Issue 8 item 3, the writer's half: whatever valid context a process holds, the codec writes a value its readers
/// accept. Before the fix a gRPC client's long <c>grpc-timeout</c> (more than a day) became a δ that the entry point
/// wrote into <c>cicero-ctx-bin</c> and every downstream service refused as malformed (INVALID_ARGUMENT).
/// </summary>
public sealed class RequestContextCodecRoundTripTests
{
    private static readonly TimeSpan MaxDuration = new RequestContextCodecOptions().MaxDuration;
    private static readonly double MaxCounter = new RequestContextCodecOptions().MaxProgressValue;

    [Theory]
    [InlineData(2 * 24)]
    [InlineData(49 * 24)]
    [InlineData(99_999_999)]
    public void Write_DeadlineLongerThanReadersAccept_IsWrittenAsTheLongestTheyAccept(double hours)
    {
        var clock = new VirtualTimeProvider();
        var codec = new RequestContextCodec(clock);
        var context = RequestContext.Start("w", clock, TimeSpan.FromHours(Math.Min(hours, TimeSpan.MaxValue.TotalHours / 2)));

        Assert.True(codec.TryRead(codec.Encode(context), out var decoded, out var error), error);
        Assert.Equal(MaxDuration, decoded.Deadline);
    }

    [Fact]
    public void Write_RequestRunningLongerThanReadersAccept_IsWrittenAsTheLongestElapsedTime()
    {
        var clock = new VirtualTimeProvider();
        var codec = new RequestContextCodec(clock);
        var context = RequestContext.Start("w", clock);
        clock.Advance(MaxDuration + TimeSpan.FromHours(1));

        Assert.True(codec.TryRead(codec.Encode(context), out var decoded, out var error), error);
        Assert.Equal(MaxDuration, decoded.GetElapsedTime(clock));
    }

    [Fact]
    public void WriteThenTryRead_RandomValidContextsWithExtremeValues_AlwaysReadable()
    {
        var random = new Random(20261122);
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromDays(400));
        var codec = new RequestContextCodec(clock);
        for (var i = 0; i < 20_000; i++)
        {
            var elapsed = TimeSpan.FromTicks(random.NextInt64(0, 3 * MaxDuration.Ticks));
            TimeSpan? deadline = random.Next(4) == 0 ? null : TimeSpan.FromTicks(random.NextInt64(1, 3 * MaxDuration.Ticks));
            var context = RequestContext.Create(
                new string('w', random.Next(1, Cicero.Workflows.WorkflowId.MaxLength + 1)),
                clock.GetTimestamp() - elapsed.Ticks * clock.TimestampFrequency / TimeSpan.TicksPerSecond,
                deadline,
                Counters(random),
                Counters(random),
                Counters(random));

            var bytes = codec.Encode(context);

            Assert.True(codec.TryRead(bytes, out var decoded, out var error), $"input {i}: {error}");
            Assert.Equal(context.Workflow, decoded.Workflow);
            Assert.Equal(deadline is { } d ? (d < MaxDuration ? d : MaxDuration) : null, decoded.Deadline);
            Assert.Equal(Math.Min(context.BeforeArrival.Load, MaxCounter), decoded.BeforeArrival.Load);
            Assert.Equal(Math.Min(context.Progress.Current.ServiceTime, MaxCounter), decoded.Progress.Current.ServiceTime);
            Assert.Equal(Math.Min(context.EstimatedTotal.Load, MaxCounter), decoded.EstimatedTotal.Load);
        }
    }

    private static ProgressDelta Counters(Random random) => random.Next(3) switch
    {
        0 => ProgressDelta.Zero,
        1 => new ProgressDelta(random.NextDouble() * 10, random.NextDouble() * 1000),
        _ => new ProgressDelta(random.NextDouble() * MaxCounter * 3, Math.Pow(10, random.Next(0, 300))),
    };
}
