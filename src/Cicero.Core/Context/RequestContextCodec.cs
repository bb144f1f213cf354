// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using Cicero.Workflows;

namespace Cicero.Context;

/// <summary>
/// Encodes a <see cref="RequestContext"/> into a compact, versioned binary form for one header, and decodes it back
/// with validation that never throws on bad input.
/// </summary>
/// <remarks>
/// <para>Version 1 layout (little-endian), documented in <c>docs/context-wire-format.md</c>:</para>
/// <code>
/// version:u8 = 1 | flags:u8 | workflowLength:u8 | workflow:ASCII[workflowLength] | elapsedTicks:i64
/// [deadlineTicks:i64] [a.st:f64 a.θ:f64] [b.st:f64 b.θ:f64] [T.st:f64 T.θ:f64]
/// </code>
/// <para>
/// Flags 0x01, 0x02, 0x04 and 0x08 mark the optional deadline, a, b and T fields. Only durations travel: the reader
/// turns the elapsed time into a start timestamp of its own clock. Thread-safe; reading known workflows does not
/// allocate a string when a <see cref="WorkflowRegistry"/> is given, and
/// neither does reading the same untracked workflow as the request before.
/// </para>
/// </remarks>
public sealed class RequestContextCodec
{
    /// <summary>The format version this codec writes.</summary>
    public const byte CurrentVersion = 1;

    /// <summary>The largest encoding of version 1, in bytes.</summary>
    public const int MaxEncodedLength = HeaderLength + WorkflowId.MaxLength + (2 * sizeof(long)) + (6 * sizeof(double));

    private const int HeaderLength = 3;
    private const byte DeadlineFlag = 0x01;
    private const byte BeforeArrivalFlag = 0x02;
    private const byte ProgressFlag = 0x04;
    private const byte EstimateFlag = 0x08;
    private const byte KnownFlags = DeadlineFlag | BeforeArrivalFlag | ProgressFlag | EstimateFlag;

    private readonly TimeProvider _timeProvider;
    private readonly WorkflowRegistry? _registry;
    private readonly long _maxDurationTicks;
    private readonly double _maxCounter;

    // The id string of the last workflow decoded without a registry slot: consecutive requests of one workflow then
    // share it instead of allocating a copy each. A benign race: a reader sees one complete string or another.
    private string? _lastUntrackedWorkflow;

    /// <summary>Creates a codec.</summary>
    /// <param name="timeProvider">The clock that start timestamps belong to.</param>
    /// <param name="registry">If given, ids of tracked workflows are read without allocating.</param>
    /// <param name="options">Validation limits; defaults when <see langword="null"/>.</param>
    public RequestContextCodec(TimeProvider timeProvider, WorkflowRegistry? registry = null, RequestContextCodecOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(timeProvider);
        options ??= new RequestContextCodecOptions();
        options.Validate();
        _timeProvider = timeProvider;
        _registry = registry;
        _maxDurationTicks = options.MaxDuration.Ticks;
        _maxCounter = options.MaxProgressValue;
    }

    /// <summary>Gets the number of bytes <see cref="Write"/> needs for <paramref name="context"/>.</summary>
    /// <param name="context">The context.</param>
    /// <returns>The encoded length.</returns>
    public static int GetEncodedLength(RequestContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return EncodedLength(context, context.BeforeArrival, context.Progress.Current);
    }

    /// <summary>
    /// Gets the number of bytes <see cref="WriteDownstream"/> needs: the length of
    /// <c>context.ForDownstreamCall()</c>'s encoding.
    /// </summary>
    /// <param name="context">The caller's context.</param>
    /// <returns>The encoded length.</returns>
    public static int GetDownstreamEncodedLength(RequestContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return EncodedLength(context, DownstreamBeforeArrival(context), default);
    }

    /// <summary>
    /// Reads the length a version-1 encoding says it has from its first three bytes, so that a context can be
    /// followed by other data in the same buffer.
    /// </summary>
    /// <param name="source">The start of an encoding (at least the 3-byte header).</param>
    /// <param name="length">The encoding's total length when the header is well formed.</param>
    /// <returns>
    /// <see langword="false"/> if the header is short or has an unknown version, unknown flags or a bad workflow length;
    /// <see cref="TryRead(ReadOnlySpan{byte}, out RequestContext, out string)"/> on the same bytes says exactly what is wrong.
    /// </returns>
    public static bool TryGetEncodedLength(ReadOnlySpan<byte> source, out int length)
    {
        length = 0;
        if (source.Length < HeaderLength || source[0] != CurrentVersion || (source[1] & ~KnownFlags) != 0 || source[2] is 0 or > WorkflowId.MaxLength)
        {
            return false;
        }

        length = ExpectedLength(source[1], source[2]);
        return true;
    }

    /// <summary>Writes <paramref name="context"/> into <paramref name="destination"/>.</summary>
    /// <param name="context">The context.</param>
    /// <param name="destination">At least <see cref="GetEncodedLength"/> bytes.</param>
    /// <returns>The number of bytes written.</returns>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is too small.</exception>
    /// <remarks>
    /// Values past the limits readers enforce (<see cref="RequestContextCodecOptions"/>) are written as those limits,
    /// so a reader with the same options always accepts what this method writes.
    /// </remarks>
    public int Write(RequestContext context, Span<byte> destination)
    {
        ArgumentNullException.ThrowIfNull(context);
        return WriteCore(context, context.BeforeArrival, context.Progress.Current, destination);
    }

    /// <summary>
    /// Writes what <c>Write(context.ForDownstreamCall(), destination)</c> would, without allocating the downstream
    /// context: a becomes a + b and b starts from zero.
    /// </summary>
    /// <param name="context">The caller's context.</param>
    /// <param name="destination">At least <see cref="GetDownstreamEncodedLength"/> bytes.</param>
    /// <returns>The number of bytes written.</returns>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is too small.</exception>
    public int WriteDownstream(RequestContext context, Span<byte> destination)
    {
        ArgumentNullException.ThrowIfNull(context);
        return WriteCore(context, DownstreamBeforeArrival(context), default, destination);
    }

    /// <summary>Encodes <paramref name="context"/> into a new array, as gRPC metadata requires.</summary>
    /// <param name="context">The context.</param>
    /// <returns>The encoded bytes.</returns>
    public byte[] Encode(RequestContext context)
    {
        var buffer = new byte[GetEncodedLength(context)];
        Write(context, buffer);
        return buffer;
    }

    /// <summary>Decodes a context, or says exactly what is wrong with the input. Never throws on bad input.</summary>
    /// <param name="source">The encoded bytes.</param>
    /// <param name="context">The context when the input is valid.</param>
    /// <param name="error">What is wrong and where, when it is not.</param>
    /// <returns><see langword="true"/> if the input is a valid context.</returns>
    public bool TryRead(ReadOnlySpan<byte> source, [NotNullWhen(true)] out RequestContext? context, [NotNullWhen(false)] out string? error) =>
        TryRead(source, null, out context, out error);

    /// <summary>
    /// Decodes a context as of <paramref name="now"/>, a timestamp of this codec's clock the caller already read, so a
    /// server reads its clock once per request (decision 0004); <see langword="null"/> reads the clock.
    /// </summary>
    /// <param name="source">The encoded bytes.</param>
    /// <param name="now">The arrival timestamp (<see cref="TimeProvider.GetTimestamp"/> of this codec's clock), or null.</param>
    /// <param name="context">The context when the input is valid.</param>
    /// <param name="error">What is wrong and where, when it is not.</param>
    /// <returns><see langword="true"/> if the input is a valid context.</returns>
    public bool TryRead(ReadOnlySpan<byte> source, long? now, [NotNullWhen(true)] out RequestContext? context, [NotNullWhen(false)] out string? error)
    {
        context = null;
        if (source.Length > MaxEncodedLength)
        {
            error = $"The context is {source.Length} bytes; the limit is {MaxEncodedLength}.";
            return false;
        }

        if (source.Length < HeaderLength)
        {
            error = $"The context is truncated: {source.Length} bytes, shorter than its {HeaderLength}-byte header.";
            return false;
        }

        if (source[0] != CurrentVersion)
        {
            error = $"The context has format version {source[0]}; this reader understands version {CurrentVersion}.";
            return false;
        }

        var flags = source[1];
        if ((flags & ~KnownFlags) != 0)
        {
            error = $"The context has unknown flags 0x{flags & ~KnownFlags:X2} at byte 1.";
            return false;
        }

        int workflowLength = source[2];
        if (workflowLength is 0 or > WorkflowId.MaxLength)
        {
            error = $"The context's workflow id length {workflowLength} at byte 2 is outside 1-{WorkflowId.MaxLength}.";
            return false;
        }

        var expected = ExpectedLength(flags, workflowLength);
        if (source.Length != expected)
        {
            error = source.Length < expected
                ? $"The context is truncated: {source.Length} bytes where its flags need {expected}."
                : $"The context has {source.Length - expected} trailing bytes after its {expected}-byte body.";
            return false;
        }

        if (!TryReadWorkflow(source.Slice(HeaderLength, workflowLength), out var workflow, out var slot, out error))
        {
            return false;
        }

        var offset = HeaderLength + workflowLength;
        var elapsedTicks = BinaryPrimitives.ReadInt64LittleEndian(source[offset..]);
        offset += sizeof(long);
        if (elapsedTicks < 0 || elapsedTicks > _maxDurationTicks)
        {
            error = $"The context's elapsed time ({elapsedTicks} ticks) is outside 0-{TimeSpan.FromTicks(_maxDurationTicks)}.";
            return false;
        }

        TimeSpan? deadline = null;
        if ((flags & DeadlineFlag) != 0)
        {
            var deadlineTicks = BinaryPrimitives.ReadInt64LittleEndian(source[offset..]);
            offset += sizeof(long);
            if (deadlineTicks <= 0 || deadlineTicks > _maxDurationTicks)
            {
                error = $"The context's deadline ({deadlineTicks} ticks) is outside (0, {TimeSpan.FromTicks(_maxDurationTicks)}].";
                return false;
            }

            deadline = TimeSpan.FromTicks(deadlineTicks);
        }

        ProgressDelta beforeArrival = default, progress = default, estimate = default;
        if (((flags & BeforeArrivalFlag) != 0 && !TryReadPair(source, ref offset, "before-arrival (a)", out beforeArrival, out error))
            || ((flags & ProgressFlag) != 0 && !TryReadPair(source, ref offset, "progress (b)", out progress, out error))
            || ((flags & EstimateFlag) != 0 && !TryReadPair(source, ref offset, "estimated total (T)", out estimate, out error)))
        {
            return false;
        }

        var start = (now ?? _timeProvider.GetTimestamp()) - RequestContext.ToTimestampDelta(elapsedTicks, _timeProvider.TimestampFrequency);
        context = RequestContext.Create(workflow, start, deadline, beforeArrival, progress, estimate);
        context.CachedSlot = slot;
        error = null;
        return true;
    }

    private bool TryReadWorkflow(ReadOnlySpan<byte> bytes, out WorkflowId workflow, out WorkflowSlot? slot, [NotNullWhen(false)] out string? error)
    {
        Span<char> chars = stackalloc char[WorkflowId.MaxLength];
        for (var i = 0; i < bytes.Length; i++)
        {
            var c = (char)bytes[i];
            if (!WorkflowId.IsValidChar(c))
            {
                workflow = default;
                slot = null;
                error = $"The context's workflow id has byte 0x{bytes[i]:X2} outside visible ASCII at byte {HeaderLength + i}.";
                return false;
            }

            chars[i] = c;
        }

        chars = chars[..bytes.Length];
        if (_registry is not null && _registry.TryGet(chars, out slot))
        {
            workflow = slot.Id;
        }
        else
        {
            slot = null;
            var last = Volatile.Read(ref _lastUntrackedWorkflow);
            if (last is null || !chars.SequenceEqual(last))
            {
                last = new string(chars);
                Volatile.Write(ref _lastUntrackedWorkflow, last);
            }

            workflow = new WorkflowId(last, trusted: true);
        }

        error = null;
        return true;
    }

    private bool TryReadPair(ReadOnlySpan<byte> source, ref int offset, string field, out ProgressDelta value, [NotNullWhen(false)] out string? error)
    {
        var serviceTime = BinaryPrimitives.ReadDoubleLittleEndian(source[offset..]);
        var load = BinaryPrimitives.ReadDoubleLittleEndian(source[(offset + sizeof(double))..]);
        if (!IsValidCounter(serviceTime) || !IsValidCounter(load))
        {
            value = default;
            error = $"The context's {field} counters at byte {offset} must be finite numbers in 0-{_maxCounter}; got {serviceTime} and {load}.";
            return false;
        }

        offset += 2 * sizeof(double);
        value = new ProgressDelta(serviceTime, load);
        error = null;
        return true;
    }

    private bool IsValidCounter(double value) => double.IsFinite(value) && value >= 0 && value <= _maxCounter;

    private static ProgressDelta DownstreamBeforeArrival(RequestContext context)
    {
        var b = context.Progress.Current;
        return new ProgressDelta(context.BeforeArrival.ServiceTime + b.ServiceTime, context.BeforeArrival.Load + b.Load);
    }

    private static int EncodedLength(RequestContext context, ProgressDelta beforeArrival, ProgressDelta progress) =>
        ExpectedLength(Flags(context, beforeArrival, progress), context.Workflow.Value.Length);

    private static byte Flags(RequestContext context, ProgressDelta beforeArrival, ProgressDelta progress) =>
        (byte)((context.Deadline.HasValue ? DeadlineFlag : 0)
            | (beforeArrival != default ? BeforeArrivalFlag : 0)
            | (progress != default ? ProgressFlag : 0)
            | (context.EstimatedTotal != default ? EstimateFlag : 0));

    private static int ExpectedLength(byte flags, int workflowLength) =>
        HeaderLength + workflowLength + sizeof(long)
            + ((flags & DeadlineFlag) != 0 ? sizeof(long) : 0)
            + ((flags & BeforeArrivalFlag) != 0 ? 2 * sizeof(double) : 0)
            + ((flags & ProgressFlag) != 0 ? 2 * sizeof(double) : 0)
            + ((flags & EstimateFlag) != 0 ? 2 * sizeof(double) : 0);

    private int WriteCore(RequestContext context, ProgressDelta beforeArrival, ProgressDelta progress, Span<byte> destination)
    {
        var flags = Flags(context, beforeArrival, progress);
        var workflow = context.Workflow.Value;
        var length = ExpectedLength(flags, workflow.Length);
        if (destination.Length < length)
        {
            throw new ArgumentException($"The destination holds {destination.Length} bytes; the context needs {length}.", nameof(destination));
        }

        destination[0] = CurrentVersion;
        destination[1] = flags;
        destination[2] = (byte)workflow.Length;
        var offset = HeaderLength;
        for (var i = 0; i < workflow.Length; i++)
        {
            destination[offset++] = (byte)workflow[i];
        }

        // Write only what readers accept: a deadline or elapsed time past MaxDuration (a client's grpc-timeout of days)
        // is written as MaxDuration, and counters past MaxProgressValue as that value, instead of a value every
        // downstream service would refuse as malformed.
        var elapsed = Math.Clamp(_timeProvider.GetElapsedTime(context.StartTimestamp).Ticks, 0, _maxDurationTicks);
        offset = WriteInt64(destination, offset, elapsed);
        if (context.Deadline is { } deadline)
        {
            offset = WriteInt64(destination, offset, Math.Min(deadline.Ticks, _maxDurationTicks));
        }

        if ((flags & BeforeArrivalFlag) != 0)
        {
            offset = WritePair(destination, offset, beforeArrival);
        }

        if ((flags & ProgressFlag) != 0)
        {
            offset = WritePair(destination, offset, progress);
        }

        if ((flags & EstimateFlag) != 0)
        {
            offset = WritePair(destination, offset, context.EstimatedTotal);
        }

        return offset;
    }

    private static int WriteInt64(Span<byte> destination, int offset, long value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination[offset..], value);
        return offset + sizeof(long);
    }

    private int WritePair(Span<byte> destination, int offset, ProgressDelta value)
    {
        BinaryPrimitives.WriteDoubleLittleEndian(destination[offset..], Math.Min(value.ServiceTime, _maxCounter));
        BinaryPrimitives.WriteDoubleLittleEndian(destination[(offset + sizeof(double))..], Math.Min(value.Load, _maxCounter));
        return offset + (2 * sizeof(double));
    }
}
