// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using BenchmarkDotNet.Attributes;
using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Benchmarks;

/// <summary>
/// Encoding and decoding a fully populated <see cref="RequestContext"/> (workflow id of 12 characters, deadline, a, b
/// and T all set: 79 bytes) with <see cref="RequestContextCodec"/>.
/// </summary>
/// <remarks>
/// "Registry" decodes with a <see cref="WorkflowRegistry"/> that tracks the workflow, so the id string is not
/// allocated; "no registry" decodes without one. The baseline writes and reads the same fields in the same layout with
/// <see cref="BinaryPrimitives"/> into a struct: no clock reads, no validation, no objects. It is the floor a codec of
/// this format could reach.
/// </remarks>
[MemoryDiagnoser]
public class ContextCodecBenchmarks
{
    private const string Workflow = "checkout-api";

    private readonly byte[] _buffer = new byte[RequestContextCodec.MaxEncodedLength];
    private RequestContextCodec _codecWithRegistry = null!;
    private RequestContextCodec _codecWithoutRegistry = null!;
    private RequestContext _context = null!;
    private byte[] _encoded = null!;

    [GlobalSetup]
    public void Setup()
    {
        var registry = new WorkflowRegistry();
        _ = registry.Resolve(Workflow);
        _codecWithRegistry = new RequestContextCodec(TimeProvider.System, registry);
        _codecWithoutRegistry = new RequestContextCodec(TimeProvider.System);
        _context = RequestContext.Create(
            Workflow,
            TimeProvider.System.GetTimestamp(),
            TimeSpan.FromSeconds(2),
            new ProgressDelta(0.010, 0.5),
            new ProgressDelta(0.005, 0.25),
            new ProgressDelta(0.050, 2.0));
        _encoded = _codecWithRegistry.Encode(_context);
        if (_encoded.Length != RequestContextCodec.GetEncodedLength(_context))
        {
            throw new InvalidOperationException($"Encoded {_encoded.Length} bytes; expected {RequestContextCodec.GetEncodedLength(_context)}.");
        }

        if (!_codecWithRegistry.TryRead(_encoded, out _, out var error) || !_codecWithoutRegistry.TryRead(_encoded, out _, out error))
        {
            throw new InvalidOperationException($"The encoded context does not decode: {error}");
        }

        if (RawRoundTrip().Deadline != TimeSpan.FromSeconds(2).Ticks)
        {
            throw new InvalidOperationException("The baseline round trip lost the deadline.");
        }
    }

    [Benchmark(Baseline = true, Description = "BinaryPrimitives write + read into a struct")]
    public RawContextFields RawRoundTrip()
    {
        var length = WriteRaw(_context, _buffer);
        return ReadRaw(_buffer.AsSpan(0, length));
    }

    [Benchmark(Description = "Write (encode only)")]
    public int Encode() => _codecWithRegistry.Write(_context, _buffer);

    [Benchmark(Description = "TryRead (decode only), registry")]
    public RequestContext? DecodeWithRegistry()
    {
        _codecWithRegistry.TryRead(_encoded, out var context, out _);
        return context;
    }

    [Benchmark(Description = "TryRead (decode only), no registry")]
    public RequestContext? DecodeWithoutRegistry()
    {
        _codecWithoutRegistry.TryRead(_encoded, out var context, out _);
        return context;
    }

    [Benchmark(Description = "Write + TryRead, registry")]
    public RequestContext? RoundTripWithRegistry()
    {
        var length = _codecWithRegistry.Write(_context, _buffer);
        _codecWithRegistry.TryRead(_buffer.AsSpan(0, length), out var context, out _);
        return context;
    }

    [Benchmark(Description = "Write + TryRead, no registry")]
    public RequestContext? RoundTripWithoutRegistry()
    {
        var length = _codecWithoutRegistry.Write(_context, _buffer);
        _codecWithoutRegistry.TryRead(_buffer.AsSpan(0, length), out var context, out _);
        return context;
    }

    private static int WriteRaw(RequestContext context, Span<byte> destination)
    {
        var workflow = context.Workflow.Value;
        destination[0] = RequestContextCodec.CurrentVersion;
        destination[1] = 0x0F;
        destination[2] = (byte)workflow.Length;
        var offset = 3;
        for (var i = 0; i < workflow.Length; i++)
        {
            destination[offset++] = (byte)workflow[i];
        }

        var progress = context.Progress.Current;
        BinaryPrimitives.WriteInt64LittleEndian(destination[offset..], context.StartTimestamp);
        BinaryPrimitives.WriteInt64LittleEndian(destination[(offset + 8)..], context.Deadline.GetValueOrDefault().Ticks);
        BinaryPrimitives.WriteDoubleLittleEndian(destination[(offset + 16)..], context.BeforeArrival.ServiceTime);
        BinaryPrimitives.WriteDoubleLittleEndian(destination[(offset + 24)..], context.BeforeArrival.Load);
        BinaryPrimitives.WriteDoubleLittleEndian(destination[(offset + 32)..], progress.ServiceTime);
        BinaryPrimitives.WriteDoubleLittleEndian(destination[(offset + 40)..], progress.Load);
        BinaryPrimitives.WriteDoubleLittleEndian(destination[(offset + 48)..], context.EstimatedTotal.ServiceTime);
        BinaryPrimitives.WriteDoubleLittleEndian(destination[(offset + 56)..], context.EstimatedTotal.Load);
        return offset + 64;
    }

    private static RawContextFields ReadRaw(ReadOnlySpan<byte> source)
    {
        var offset = 3 + source[2];
        return new RawContextFields(
            source[2],
            BinaryPrimitives.ReadInt64LittleEndian(source[offset..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[(offset + 8)..]),
            BinaryPrimitives.ReadDoubleLittleEndian(source[(offset + 16)..]),
            BinaryPrimitives.ReadDoubleLittleEndian(source[(offset + 24)..]),
            BinaryPrimitives.ReadDoubleLittleEndian(source[(offset + 32)..]),
            BinaryPrimitives.ReadDoubleLittleEndian(source[(offset + 40)..]),
            BinaryPrimitives.ReadDoubleLittleEndian(source[(offset + 48)..]),
            BinaryPrimitives.ReadDoubleLittleEndian(source[(offset + 56)..]));
    }
}
