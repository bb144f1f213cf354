// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Globalization;
using System.Text;

namespace Cicero.Emulator.Traces;

/// <summary>
/// Writes a trace in the Cicero format: the version line with the header's properties, the column line with every
/// column of <see cref="TraceColumns.All"/>, then one request per line. Formats into one pooled buffer, so writing a
/// trace of any size allocates nothing per request.
/// </summary>
/// <remarks>
/// Not thread-safe. Checks each request against the rules the reader enforces (names, non-negative sizes, arrivals that
/// do not go back in time), so whatever it writes reads back. Dispose (or flush) to write the buffered tail.
/// </remarks>
public sealed class TraceWriter : IDisposable, IAsyncDisposable
{
    private const int BufferBytes = 64 * 1024;

    // Nine fields of at most 24 characters each (a double's round-trip form), two names and separators.
    private const int MaxLineBytes = (9 * 24) + (2 * TraceNames.MaxLength) + 16;

    private readonly Stream _stream;
    private readonly bool _leaveOpen;
    private byte[]? _buffer;
    private int _length;
    private double _previousArrivalMs;

    /// <summary>Creates a writer over a stream and buffers the two header lines.</summary>
    /// <param name="stream">Where the trace goes.</param>
    /// <param name="header">The properties to write on the version line; none when omitted. Its columns are ignored: the writer writes them all.</param>
    /// <param name="leaveOpen">Whether disposing the writer leaves the stream open.</param>
    public TraceWriter(Stream stream, TraceHeader? header = null, bool leaveOpen = false)
    {
        ArgumentNullException.ThrowIfNull(stream);
        _stream = stream;
        _leaveOpen = leaveOpen;
        _buffer = ArrayPool<byte>.Shared.Rent(BufferBytes);
        var text = new StringBuilder().Append(TraceHeader.Magic).Append(" v").Append(TraceHeader.CurrentVersion);
        foreach (var (key, value) in (header ?? new TraceHeader()).Properties.OrderBy(p => p.Key, StringComparer.Ordinal))
        {
            text.Append(' ').Append(key).Append('=').Append(value);
        }

        text.Append('\n').AppendJoin(',', TraceColumns.All).Append('\n');
        var bytes = Encoding.UTF8.GetBytes(text.ToString());
        if (bytes.Length > _buffer.Length)
        {
            throw new ArgumentException("The header's properties are too long.", nameof(header));
        }

        bytes.CopyTo(_buffer, 0);
        _length = bytes.Length;
    }

    /// <summary>Gets how many requests have been written.</summary>
    public long RequestsWritten { get; private set; }

    /// <summary>Creates a trace file (replacing one that exists) and a writer for it.</summary>
    /// <param name="path">The file.</param>
    /// <param name="header">The properties to write; none when omitted.</param>
    /// <returns>The writer; dispose it to finish the file.</returns>
    public static TraceWriter Create(string path, TraceHeader? header = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var stream = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 1, FileOptions.SequentialScan);
        return new TraceWriter(stream, header);
    }

    /// <summary>Writes one request.</summary>
    /// <param name="request">The request.</param>
    /// <exception cref="ArgumentException">A field breaks the format's rules.</exception>
    public void Write(in TraceRequest request)
    {
        if (Format(request))
        {
            FlushBuffer();
        }
    }

    /// <summary>Writes one request without blocking a thread when the buffer has to be written out.</summary>
    /// <param name="request">The request.</param>
    /// <param name="cancellationToken">Cancels the write.</param>
    /// <returns>A task that completes when the request is buffered or written.</returns>
    /// <exception cref="ArgumentException">A field breaks the format's rules.</exception>
    public ValueTask WriteAsync(TraceRequest request, CancellationToken cancellationToken = default) =>
        Format(request) ? FlushBufferAsync(cancellationToken) : ValueTask.CompletedTask;

    /// <summary>Writes the buffered lines to the stream and flushes it.</summary>
    public void Flush()
    {
        FlushBuffer();
        _stream.Flush();
    }

    /// <summary>Writes the buffered lines to the stream and flushes it without blocking a thread.</summary>
    /// <param name="cancellationToken">Cancels the write.</param>
    /// <returns>A task that completes when the stream is flushed.</returns>
    public async ValueTask FlushAsync(CancellationToken cancellationToken = default)
    {
        await FlushBufferAsync(cancellationToken).ConfigureAwait(false);
        await _stream.FlushAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Writes the buffered tail and releases the buffer and, unless told to leave it open, the stream.</summary>
    public void Dispose()
    {
        if (_buffer is null)
        {
            return;
        }

        try
        {
            Flush();
        }
        finally
        {
            Release();
            if (!_leaveOpen)
            {
                _stream.Dispose();
            }
        }
    }

    /// <summary>Writes the buffered tail and releases the buffer and, unless told to leave it open, the stream.</summary>
    /// <returns>A task that completes when done.</returns>
    public async ValueTask DisposeAsync()
    {
        if (_buffer is null)
        {
            return;
        }

        try
        {
            await FlushAsync().ConfigureAwait(false);
        }
        finally
        {
            Release();
            if (!_leaveOpen)
            {
                await _stream.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    /// <summary>Formats a request into the buffer.</summary>
    /// <returns>Whether the buffer should be written out now.</returns>
    private bool Format(in TraceRequest request)
    {
        var buffer = _buffer ?? throw new ObjectDisposedException(nameof(TraceWriter));
        Check(request);
        var span = buffer.AsSpan(_length);
        var at = 0;
        at += Number(span[at..], request.ArrivalMs);
        span[at++] = (byte)',';
        at += Encoding.UTF8.GetBytes(request.Tenant, span[at..]);
        span[at++] = (byte)',';
        at += Encoding.UTF8.GetBytes(request.Operation, span[at..]);
        span[at++] = (byte)',';
        at += Integer(span[at..], request.RequestBytes);
        span[at++] = (byte)',';
        at += Integer(span[at..], request.ResponseBytes);
        span[at++] = (byte)',';
        at += request.FanOut is { } fanOut ? Integer(span[at..], fanOut) : 0;
        span[at++] = (byte)',';
        at += request.AuthMs is { } authMs ? Number(span[at..], authMs) : 0;
        span[at++] = (byte)',';
        at += request.PsMs is { } psMs ? Number(span[at..], psMs) : 0;
        span[at++] = (byte)',';
        at += request.BsMs is { } bsMs ? Number(span[at..], bsMs) : 0;
        span[at++] = (byte)'\n';
        _length += at;
        _previousArrivalMs = request.ArrivalMs;
        RequestsWritten++;
        return buffer.Length - _length < MaxLineBytes;
    }

    private void Check(in TraceRequest request)
    {
        if (!double.IsFinite(request.ArrivalMs) || request.ArrivalMs < _previousArrivalMs)
        {
            throw new ArgumentException($"Request {RequestsWritten}: arrival_ms must be finite and not earlier than the previous request's {_previousArrivalMs}, was {request.ArrivalMs}.", nameof(request));
        }

        if (request.Tenant is null || !TraceNames.IsValid(request.Tenant) || request.Operation is null || !TraceNames.IsValid(request.Operation))
        {
            throw new ArgumentException($"Request {RequestsWritten}: tenant and op must be 1-{TraceNames.MaxLength} letters, digits, '-', '_', '.' or '+', were '{request.Tenant}' and '{request.Operation}'.", nameof(request));
        }

        if (request.RequestBytes < 0 || request.ResponseBytes < 0 || request.FanOut < 0
            || !IsHint(request.AuthMs) || !IsHint(request.PsMs) || !IsHint(request.BsMs))
        {
            throw new ArgumentException($"Request {RequestsWritten}: sizes, fan-out and hints must be non-negative and finite: {request}.", nameof(request));
        }
    }

    private static bool IsHint(double? value) => value is not { } v || (double.IsFinite(v) && v >= 0);

    private static int Number(Span<byte> destination, double value)
    {
        // The shortest text that parses back to the same double.
        value.TryFormat(destination, out var written, default, CultureInfo.InvariantCulture);
        return written;
    }

    private static int Integer(Span<byte> destination, long value)
    {
        value.TryFormat(destination, out var written, default, CultureInfo.InvariantCulture);
        return written;
    }

    private void FlushBuffer()
    {
        var buffer = _buffer ?? throw new ObjectDisposedException(nameof(TraceWriter));
        _stream.Write(buffer, 0, _length);
        _length = 0;
    }

    private async ValueTask FlushBufferAsync(CancellationToken cancellationToken)
    {
        var buffer = _buffer ?? throw new ObjectDisposedException(nameof(TraceWriter));
        await _stream.WriteAsync(buffer.AsMemory(0, _length), cancellationToken).ConfigureAwait(false);
        _length = 0;
    }

    private void Release()
    {
        var buffer = _buffer;
        _buffer = null;
        if (buffer is not null)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
