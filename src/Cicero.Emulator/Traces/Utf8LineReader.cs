// SPDX-License-Identifier: Apache-2.0

using System.Buffers;

namespace Cicero.Emulator.Traces;

/// <summary>
/// Splits a UTF-8 stream into lines inside one pooled buffer, so reading a file of any size holds one buffer (64 KiB,
/// growing only for a longer line, up to <see cref="MaxLineBytes"/>). Lines end at LF; a CR before it is dropped; a
/// last line without LF counts; a UTF-8 byte order mark is skipped.
/// </summary>
/// <remarks>Not thread-safe. A line returned by <see cref="TryTakeLine"/> is valid until the next fill.</remarks>
internal sealed class Utf8LineReader : IDisposable
{
    internal const int MaxLineBytes = 1 << 20;
    private const int InitialBytes = 64 * 1024;

    private readonly Stream _stream;
    private readonly bool _leaveOpen;
    private byte[]? _buffer;
    private int _start;
    private int _end;
    private int _scanned;
    private bool _eof;
    private bool _atStart = true;

    public Utf8LineReader(Stream stream, string fileName, bool leaveOpen)
    {
        _stream = stream;
        FileName = fileName;
        _leaveOpen = leaveOpen;
        _buffer = ArrayPool<byte>.Shared.Rent(InitialBytes);
    }

    public string FileName { get; }

    /// <summary>Gets the 1-based number of the last line taken (0 before the first).</summary>
    public long LineNumber { get; private set; }

    /// <summary>Takes the next complete line from the buffer.</summary>
    /// <returns><see cref="LineStatus.Line"/>, <see cref="LineStatus.NeedMore"/> (call a fill method), or <see cref="LineStatus.End"/>.</returns>
    public LineStatus TryTakeLine(out ReadOnlySpan<byte> line)
    {
        var buffer = _buffer ?? throw new ObjectDisposedException(nameof(Utf8LineReader));
        var data = buffer.AsSpan(_start, _end - _start);
        if (_atStart)
        {
            if (data.Length < 3 && !_eof)
            {
                line = default;
                return LineStatus.NeedMore;
            }

            if (data.StartsWith("\uFEFF"u8))
            {
                _start += 3;
                data = data[3..];
            }

            _atStart = false;
        }

        // Only scan bytes not scanned before, so a long line arriving in pieces is not rescanned each time.
        var newline = data[_scanned..].IndexOf((byte)'\n');
        if (newline >= 0)
        {
            newline += _scanned;
            line = TrimCr(data[..newline]);
            _start += newline + 1;
            _scanned = 0;
            LineNumber++;
            return LineStatus.Line;
        }

        _scanned = data.Length;
        if (!_eof)
        {
            line = default;
            return LineStatus.NeedMore;
        }

        if (data.IsEmpty)
        {
            line = default;
            return LineStatus.End;
        }

        line = TrimCr(data);
        _start = _end;
        _scanned = 0;
        LineNumber++;
        return LineStatus.Line;
    }

    /// <summary>Reads more bytes; at the end of the stream, marks it so the last line can be taken.</summary>
    public void Fill()
    {
        var buffer = MakeRoom();
        var read = _stream.Read(buffer, _end, buffer.Length - _end);
        Advance(read);
    }

    /// <summary>Reads more bytes without blocking a thread.</summary>
    /// <param name="cancellationToken">Cancels the read.</param>
    /// <returns>A task that completes when bytes arrived or the stream ended.</returns>
    public async ValueTask FillAsync(CancellationToken cancellationToken)
    {
        var buffer = MakeRoom();
        var read = await _stream.ReadAsync(buffer.AsMemory(_end, buffer.Length - _end), cancellationToken).ConfigureAwait(false);
        Advance(read);
    }

    public void Dispose()
    {
        if (_buffer is { } buffer)
        {
            _buffer = null;
            ArrayPool<byte>.Shared.Return(buffer);
            if (!_leaveOpen)
            {
                _stream.Dispose();
            }
        }
    }

    private static ReadOnlySpan<byte> TrimCr(ReadOnlySpan<byte> line) =>
        line.Length > 0 && line[^1] == (byte)'\r' ? line[..^1] : line;

    private void Advance(int read)
    {
        if (read == 0)
        {
            _eof = true;
        }
        else
        {
            _end += read;
        }
    }

    private byte[] MakeRoom()
    {
        var buffer = _buffer ?? throw new ObjectDisposedException(nameof(Utf8LineReader));
        if (_start > 0)
        {
            var length = _end - _start;
            buffer.AsSpan(_start, length).CopyTo(buffer);
            _start = 0;
            _end = length;
        }

        if (_end < buffer.Length)
        {
            return buffer;
        }

        if (buffer.Length >= MaxLineBytes)
        {
            throw new TraceFormatException(FileName, LineNumber + 1, null, $"line is longer than {MaxLineBytes / 1024} KiB; is this a text trace?");
        }

        var larger = ArrayPool<byte>.Shared.Rent(Math.Min(buffer.Length * 2, MaxLineBytes));
        buffer.AsSpan(0, _end).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(buffer);
        _buffer = larger;
        return larger;
    }
}
