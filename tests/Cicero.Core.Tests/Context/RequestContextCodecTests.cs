// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using Cicero.Context;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Tests.Context;

public class RequestContextCodecTests
{
    private readonly VirtualTimeProvider _clock = new();

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void WriteDownstream_WritesWhatForDownstreamCallWould(bool withProgress)
    {
        var context = RequestContext.Create(
            "tenant-7", _clock.GetTimestamp(), TimeSpan.FromSeconds(3), new ProgressDelta(0.2, 2), ProgressDelta.Zero, new ProgressDelta(1, 4));
        if (withProgress)
        {
            context.Progress.AddLocalWork(0.05, 1);
        }

        _clock.Advance(TimeSpan.FromMilliseconds(40));
        var codec = new RequestContextCodec(_clock);
        var expected = codec.Encode(context.ForDownstreamCall());
        var actual = new byte[RequestContextCodec.GetDownstreamEncodedLength(context)];

        var written = codec.WriteDownstream(context, actual);

        Assert.Equal(expected.Length, written);
        Assert.Equal(expected, actual);
    }

    [Fact]
    public void TryGetEncodedLength_ReadsTheLengthFromTheHeader_OrRefusesAMalformedOne()
    {
        var codec = new RequestContextCodec(_clock);
        var bytes = codec.Encode(RequestContext.Create("tenant-7", _clock.GetTimestamp(), TimeSpan.FromSeconds(3), new ProgressDelta(0.2, 2), ProgressDelta.Zero, default));

        Assert.True(RequestContextCodec.TryGetEncodedLength([.. bytes, 0x61, 0x62], out var length));
        Assert.Equal(bytes.Length, length);
        Assert.False(RequestContextCodec.TryGetEncodedLength(bytes.AsSpan(0, 2), out _));
        Assert.False(RequestContextCodec.TryGetEncodedLength([2, 0, 1], out _));
        Assert.False(RequestContextCodec.TryGetEncodedLength([1, 0x80, 1], out _));
        Assert.False(RequestContextCodec.TryGetEncodedLength([1, 0, 0], out _));
    }

    [Fact]
    public void WriteThenTryRead_FullContext_RoundTripsEveryField()
    {
        _clock.Advance(TimeSpan.FromSeconds(10));
        var original = RequestContext.Create(
            "tenant-42",
            _clock.GetTimestamp(),
            TimeSpan.FromMilliseconds(250),
            new ProgressDelta(0.012, 0.3),
            new ProgressDelta(0.004, 0.05),
            new ProgressDelta(0.040, 1.25));
        _clock.Advance(TimeSpan.FromMilliseconds(7));
        var codec = new RequestContextCodec(_clock);

        var bytes = codec.Encode(original);
        var ok = codec.TryRead(bytes, out var decoded, out var error);

        Assert.True(ok, error);
        Assert.Equal(original.Workflow, decoded!.Workflow);
        Assert.Equal(original.StartTimestamp, decoded.StartTimestamp);
        Assert.Equal(original.Deadline, decoded.Deadline);
        Assert.Equal(original.BeforeArrival, decoded.BeforeArrival);
        Assert.Equal(original.Progress.Current, decoded.Progress.Current);
        Assert.Equal(original.EstimatedTotal, decoded.EstimatedTotal);
        Assert.Equal(RequestContextCodec.GetEncodedLength(original), bytes.Length);
    }

    [Fact]
    public void WriteThenTryRead_MinimalContext_OmitsOptionalFields()
    {
        var original = RequestContext.Start("w", _clock);
        var codec = new RequestContextCodec(_clock);

        var bytes = codec.Encode(original);

        Assert.Equal(3 + 1 + 8, bytes.Length);
        Assert.True(codec.TryRead(bytes, out var decoded, out _));
        Assert.Null(decoded.Deadline);
        Assert.Equal(ProgressDelta.Zero, decoded.BeforeArrival);
    }

    [Fact]
    public void TryRead_KnownWorkflow_ReusesRegistryIdentity()
    {
        var registry = new WorkflowRegistry();
        var slot = registry.Resolve("tenant");
        var codec = new RequestContextCodec(_clock, registry);

        Assert.True(codec.TryRead(codec.Encode(RequestContext.Start("tenant", _clock)), out var decoded, out _));

        Assert.Same(slot.Id.Value, decoded.Workflow.Value);
        Assert.Same(slot, registry.Resolve(decoded));
    }

    [Fact]
    public void TryRead_UntrackedWorkflow_SharesTheIdOfTheRequestBefore_AndNeverMixesIdsUp()
    {
        var codec = new RequestContextCodec(_clock);
        var first = codec.Encode(RequestContext.Start("tenant-a", _clock));
        var other = codec.Encode(RequestContext.Start("tenant-b", _clock));
        var sameLength = codec.Encode(RequestContext.Start("tenant-c", _clock));

        Assert.True(codec.TryRead(first, out var a1, out _));
        Assert.True(codec.TryRead(first, out var a2, out _));
        Assert.True(codec.TryRead(other, out var b1, out _));
        Assert.True(codec.TryRead(sameLength, out var c1, out _));
        Assert.True(codec.TryRead(first, out var a3, out _));

        Assert.Same(a1.Workflow.Value, a2.Workflow.Value);
        Assert.Equal(["tenant-a", "tenant-a", "tenant-b", "tenant-c", "tenant-a"], new[] { a1, a2, b1, c1, a3 }.Select(c => c.Workflow.Value));
    }

    [Fact]
    public void TryRead_UntrackedWorkflowFromManyThreads_AlwaysDecodesItsOwnId()
    {
        var codec = new RequestContextCodec(_clock);
        var encodings = Enumerable.Range(0, 8).Select(i => codec.Encode(RequestContext.Start($"tenant-{i}", _clock))).ToArray();
        var mismatches = 0;

        Parallel.For(0, 20_000, i =>
        {
            var k = i % encodings.Length;
            if (!codec.TryRead(encodings[k], out var decoded, out _) || decoded.Workflow.Value != $"tenant-{k}")
            {
                Interlocked.Increment(ref mismatches);
            }
        });

        Assert.Equal(0, mismatches);
    }

    [Fact]
    public void Write_DestinationTooSmall_Throws()
    {
        var codec = new RequestContextCodec(_clock);
        var context = RequestContext.Start("workflow", _clock);

        Assert.Throws<ArgumentException>(() => codec.Write(context, new byte[5]));
    }

    public static TheoryData<string, byte[], string> BadInputs()
    {
        var data = new TheoryData<string, byte[], string>();
        var valid = Valid();
        data.Add("empty", [], "truncated");
        data.Add("short header", [1, 0], "truncated");
        data.Add("unknown version", With(valid, 0, 2), "format version 2");
        data.Add("unknown flags", With(valid, 1, 0x10), "unknown flags 0x10");
        data.Add("empty workflow", With(valid, 2, 0), "outside 1-128");
        data.Add("workflow too long", [1, 0, 200, .. new byte[20]], "outside 1-128");
        data.Add("truncated body", valid[..^1], "truncated");
        data.Add("trailing bytes", [.. valid, 0], "trailing");
        data.Add("non-ascii workflow", With(valid, 3, 0xC3), "outside visible ASCII at byte 3");
        data.Add("space in workflow", With(valid, 3, (byte)' '), "outside visible ASCII");
        data.Add("oversized", new byte[RequestContextCodec.MaxEncodedLength + 1], "limit is");
        data.Add("negative elapsed", WithInt64(valid, 4, -5), "elapsed time");
        data.Add("absurd elapsed", WithInt64(valid, 4, TimeSpan.FromDays(400).Ticks), "elapsed time");
        data.Add("zero deadline", WithInt64(valid, 12, 0), "deadline");
        data.Add("negative deadline", WithInt64(valid, 12, -1), "deadline");
        data.Add("absurd deadline", WithInt64(valid, 12, long.MaxValue), "deadline");
        data.Add("NaN counter", WithDouble(valid, 20, double.NaN), "before-arrival (a) counters at byte 20");
        data.Add("negative counter", WithDouble(valid, 28, -1), "before-arrival (a)");
        data.Add("infinite progress", WithDouble(valid, 36, double.PositiveInfinity), "progress (b)");
        data.Add("huge estimate", WithDouble(valid, 52, 1e300), "estimated total (T)");
        return data;
    }

    [Theory]
    [MemberData(nameof(BadInputs))]
    public void TryRead_BadInput_ReturnsFalseWithMessage(string name, byte[] input, string expected)
    {
        var codec = new RequestContextCodec(_clock);

        var ok = codec.TryRead(input, out var context, out var error);

        Assert.False(ok, name);
        Assert.Null(context);
        Assert.Contains(expected, error, StringComparison.Ordinal);
    }

    [Fact]
    public void TryRead_RandomAndMutatedInputs_NeverThrow()
    {
        var codec = new RequestContextCodec(_clock);
        var random = new Random(20261122);
        var valid = Valid();
        var accepted = 0;
        for (var i = 0; i < 20_000; i++)
        {
            byte[] input;
            if (i % 2 == 0)
            {
                input = new byte[random.Next(0, RequestContextCodec.MaxEncodedLength + 8)];
                random.NextBytes(input);
            }
            else
            {
                input = (byte[])valid.Clone();
                for (var flips = random.Next(1, 4); flips > 0; flips--)
                {
                    input[random.Next(input.Length)] = (byte)random.Next(256);
                }
            }

            if (codec.TryRead(input, out var context, out var error))
            {
                accepted++;
                Assert.NotNull(context);
            }
            else
            {
                Assert.False(string.IsNullOrEmpty(error));
            }
        }

        // Some single-byte mutations (say, in a counter's low bits) are still valid contexts; most are not.
        Assert.InRange(accepted, 1, 10_000);
    }

    /// <summary>A valid encoding with every field: 't', elapsed 1 s, deadline 2 s, a, b and T set.</summary>
    private static byte[] Valid()
    {
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromSeconds(5));
        var context = RequestContext.Create("t", clock.GetTimestamp(), TimeSpan.FromSeconds(2), new(0.1, 0.2), new(0.3, 0.4), new(0.5, 0.6));
        clock.Advance(TimeSpan.FromSeconds(1));
        return new RequestContextCodec(clock).Encode(context);
    }

    private static byte[] With(byte[] source, int index, byte value)
    {
        var copy = (byte[])source.Clone();
        copy[index] = value;
        return copy;
    }

    private static byte[] WithInt64(byte[] source, int offset, long value)
    {
        var copy = (byte[])source.Clone();
        BinaryPrimitives.WriteInt64LittleEndian(copy.AsSpan(offset), value);
        return copy;
    }

    private static byte[] WithDouble(byte[] source, int offset, double value)
    {
        var copy = (byte[])source.Clone();
        BinaryPrimitives.WriteDoubleLittleEndian(copy.AsSpan(offset), value);
        return copy;
    }
}
