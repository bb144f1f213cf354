// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Context;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Context;

public sealed class CiceroTrailersTests
{
    [Fact]
    public void TryRead_WhatTheServerWrites_ReturnsEveryField_ToSinglePrecision()
    {
        var bytes = TrailerCodec.Encode(new ProgressDelta(0.009, 5), 3, TimeSpan.FromMilliseconds(12), 0.25, "http://10.0.0.7:5001"u8);
        var trailers = Trailers(bytes);

        Assert.Equal(TrailerCodec.FixedLength + 20, bytes.Length);
        Assert.True(CiceroTrailers.TryRead(trailers, out var result));
        Assert.Equal(0.009, result.Progress.ServiceTime, 1e-9);
        Assert.Equal(5, result.Progress.Load);
        Assert.Equal(3, result.QueueSize);
        Assert.Equal(0.012, result.ServiceTime.TotalSeconds, 1e-9);
        Assert.Equal(0.25, result.BackgroundActivity);
        Assert.Equal("http://10.0.0.7:5001", result.Instance);
        Assert.True(CiceroTrailers.TryReadProgress(trailers, out var progress));
        Assert.Equal(result.Progress, progress);
    }

    [Fact]
    public void TryRead_VersionOneTrailer_FromAnOlderCallee_IsStillRead()
    {
        // Version 1: the same fields as doubles (42 fixed bytes), as callees before 2026-11-24 wrote them.
        var instance = "old-callee"u8;
        var bytes = new byte[TrailerCodec.LegacyFixedLength + instance.Length];
        bytes[0] = 1;
        double[] fields = [0.009, 5, 3, 0.012, 0.25];
        for (var i = 0; i < fields.Length; i++)
        {
            System.Buffers.Binary.BinaryPrimitives.WriteDoubleLittleEndian(bytes.AsSpan(1 + (8 * i)), fields[i]);
        }

        bytes[TrailerCodec.LegacyFixedLength - 1] = (byte)instance.Length;
        instance.CopyTo(bytes.AsSpan(TrailerCodec.LegacyFixedLength));

        Assert.True(CiceroTrailers.TryRead(Trailers(bytes), out var result));
        Assert.Equal(new ProgressDelta(0.009, 5), result.Progress);
        Assert.Equal(3, result.QueueSize);
        Assert.Equal(TimeSpan.FromMilliseconds(12), result.ServiceTime);
        Assert.Equal("old-callee", result.Instance);
        Assert.False(CiceroTrailers.TryRead(Trailers([3, .. bytes[1..]]), out _));
    }

    [Fact]
    public void TryRead_MissingTruncatedOrPoisoned_ReturnsFalse()
    {
        var good = TrailerCodec.Encode(new ProgressDelta(1, 1), 0, TimeSpan.Zero, 0, "i"u8);
        var negative = TrailerCodec.Encode(new ProgressDelta(-1, 1), 0, TimeSpan.Zero, 0, "i"u8);
        var spaced = TrailerCodec.Encode(new ProgressDelta(1, 1), 0, TimeSpan.Zero, 0, "a b"u8);

        Assert.False(CiceroTrailers.TryRead(null, out _));
        Assert.False(CiceroTrailers.TryRead(new Metadata(), out _));
        Assert.False(CiceroTrailers.TryRead(Trailers(good[..^1]), out _));
        Assert.False(CiceroTrailers.TryRead(Trailers([.. good, 0x41]), out _));
        Assert.False(CiceroTrailers.TryRead(Trailers(negative), out _));
        Assert.False(CiceroTrailers.TryRead(Trailers(spaced), out _));
        Assert.True(CiceroTrailers.TryRead(Trailers(good), out _));
    }

    [Fact]
    public void ContextHeader_SplitsContextAndCaller_AndLeavesMalformedWhole()
    {
        var clock = TimeProvider.System;
        var codec = new RequestContextCodec(clock);
        var context = RequestContext.Start("tenant-a", clock, TimeSpan.FromSeconds(2));
        context.Progress.AddLocalWork(0.5, 1);

        var header = ContextHeader.Encode(codec, context, "caller-1"u8);
        ContextHeader.Split(header, out var contextPart, out var caller);

        Assert.Equal("caller-1"u8.ToArray(), caller.ToArray());
        Assert.True(codec.TryRead(contextPart, out var decoded, out var error), error);
        Assert.Equal(new ProgressDelta(0.5, 1), decoded.BeforeArrival);
        Assert.Equal(ProgressDelta.Zero, decoded.Progress.Current);

        byte[] garbage = [0x07, 0x00, 0x01, 0x41];
        ContextHeader.Split(garbage, out var whole, out var none);
        Assert.Equal(garbage, whole.ToArray());
        Assert.True(none.IsEmpty);
    }

    [Theory]
    [InlineData("", false)]
    [InlineData("a b", false)]
    [InlineData("caller-1", true)]
    [InlineData("http://10.0.0.1:80", true)]
    public void CallerIds_IsValid_AcceptsPrintableAsciiOnly(string id, bool valid)
    {
        Assert.Equal(valid, id.Length > 0 && CallerIds.IsValid(System.Text.Encoding.UTF8.GetBytes(id)));
        Assert.False(CallerIds.IsValid(new byte[256]));
        Assert.False(CallerIds.IsValid("é"u8));
    }

    [Fact]
    public void CallerIds_Get_ReturnsTheSameStringForTheSameBytes()
    {
        var ids = new CallerIds();

        var first = ids.Get("upstream-1"u8);
        var second = ids.Get("upstream-1"u8);

        Assert.Equal("upstream-1", first);
        Assert.Same(first, second);
    }

    private static Metadata Trailers(byte[] value) => new() { { CiceroMetadataKeys.Result, value } };
}
