// SPDX-License-Identifier: Apache-2.0

using System.Runtime.CompilerServices;

namespace Cicero.Emulator.Traces;

/// <summary>
/// Reads a trace in the Cicero format (<c>traces/README.md</c>) one request at a time, in constant memory: one pooled
/// 64 KiB buffer, fields parsed from UTF-8 spans, and tenant and operation names interned, so a file of any size
/// allocates nothing per line once its names have been seen. The header is parsed by <see cref="TraceHeaderParser"/>,
/// request lines by <see cref="TraceLineParser"/>.
/// </summary>
/// <remarks>
/// Not thread-safe: one consumer reads it, synchronously (<see cref="TryRead"/>, <see cref="ReadAll"/>) or
/// asynchronously (<see cref="ReadAllAsync"/>), not both at once. Every problem throws <see cref="TraceFormatException"/>
/// naming the file, line and field.
/// </remarks>
public sealed class TraceReader : IDisposable
{
    private readonly Utf8LineReader _lines;
    private readonly TraceHeaderParser _header;
    private TraceLineParser? _requests;

    private TraceReader(Stream stream, string fileName, bool leaveOpen)
    {
        _lines = new Utf8LineReader(stream, fileName, leaveOpen);
        _header = new TraceHeaderParser(_lines);
    }

    /// <summary>Gets the trace's header (version, columns, properties).</summary>
    public TraceHeader Header => _header.Header ?? throw new InvalidOperationException("The header has not been read.");

    /// <summary>Gets the file's name as the reader was given it; it prefixes every error.</summary>
    public string FileName => _lines.FileName;

    /// <summary>Gets the 1-based number of the last line read.</summary>
    public long LineNumber => _lines.LineNumber;

    /// <summary>Gets how many requests have been read.</summary>
    public long RequestsRead { get; private set; }

    /// <summary>Opens a trace file and reads its header.</summary>
    /// <param name="path">The file.</param>
    /// <returns>The reader, positioned at the first request.</returns>
    /// <exception cref="TraceFormatException">The header is malformed.</exception>
    public static TraceReader Open(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return Create(OpenFile(path, useAsync: false), path, leaveOpen: false);
    }

    /// <summary>Opens a trace file and reads its header without blocking a thread.</summary>
    /// <param name="path">The file.</param>
    /// <param name="cancellationToken">Cancels the read.</param>
    /// <returns>The reader, positioned at the first request.</returns>
    /// <exception cref="TraceFormatException">The header is malformed.</exception>
    public static ValueTask<TraceReader> OpenAsync(string path, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return CreateAsync(OpenFile(path, useAsync: true), path, leaveOpen: false, cancellationToken);
    }

    /// <summary>Creates a reader over a stream and reads the header.</summary>
    /// <param name="stream">The trace, UTF-8.</param>
    /// <param name="fileName">The name errors show.</param>
    /// <param name="leaveOpen">Whether disposing the reader leaves the stream open.</param>
    /// <returns>The reader, positioned at the first request.</returns>
    /// <exception cref="TraceFormatException">The header is malformed.</exception>
    public static TraceReader Create(Stream stream, string fileName, bool leaveOpen = false)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(fileName);
        var reader = new TraceReader(stream, fileName, leaveOpen);
        try
        {
            while (!reader.TryReadHeader())
            {
                reader._lines.Fill();
            }

            return reader;
        }
        catch
        {
            reader.Dispose();
            throw;
        }
    }

    /// <summary>Creates a reader over a stream and reads the header without blocking a thread.</summary>
    /// <param name="stream">The trace, UTF-8.</param>
    /// <param name="fileName">The name errors show.</param>
    /// <param name="leaveOpen">Whether disposing the reader leaves the stream open.</param>
    /// <param name="cancellationToken">Cancels the read.</param>
    /// <returns>The reader, positioned at the first request.</returns>
    /// <exception cref="TraceFormatException">The header is malformed.</exception>
    public static async ValueTask<TraceReader> CreateAsync(Stream stream, string fileName, bool leaveOpen = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(fileName);
        var reader = new TraceReader(stream, fileName, leaveOpen);
        try
        {
            while (!reader.TryReadHeader())
            {
                await reader._lines.FillAsync(cancellationToken).ConfigureAwait(false);
            }

            return reader;
        }
        catch
        {
            reader.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Reads a trace file lazily. Each enumeration opens the file again, so the sequence can be enumerated more than
    /// once (the replay planner does).
    /// </summary>
    /// <param name="path">The file.</param>
    /// <returns>The requests in file order.</returns>
    public static IEnumerable<TraceRequest> ReadFile(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return ReadFileIterator(path);
    }

    /// <summary>Reads a trace file lazily without blocking threads; each enumeration opens the file again.</summary>
    /// <param name="path">The file.</param>
    /// <param name="cancellationToken">Cancels the reads.</param>
    /// <returns>The requests in file order.</returns>
    public static IAsyncEnumerable<TraceRequest> ReadFileAsync(string path, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return ReadFileAsyncIterator(path, cancellationToken);
    }

    /// <summary>Reads the next request.</summary>
    /// <param name="request">The request, when there is one.</param>
    /// <returns><see langword="false"/> at the end of the trace.</returns>
    /// <exception cref="TraceFormatException">The line is malformed.</exception>
    public bool TryRead(out TraceRequest request)
    {
        while (true)
        {
            switch (TryReadBuffered(out request))
            {
                case LineStatus.Line:
                    return true;
                case LineStatus.End:
                    return false;
                default:
                    _lines.Fill();
                    break;
            }
        }
    }

    /// <summary>Reads the remaining requests.</summary>
    /// <returns>The requests in file order; enumerate it once.</returns>
    public IEnumerable<TraceRequest> ReadAll()
    {
        while (TryRead(out var request))
        {
            yield return request;
        }
    }

    /// <summary>Reads the remaining requests without blocking a thread.</summary>
    /// <param name="cancellationToken">Cancels the reads.</param>
    /// <returns>The requests in file order; enumerate it once.</returns>
    public async IAsyncEnumerable<TraceRequest> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        while (true)
        {
            var status = TryReadBuffered(out var request);
            if (status == LineStatus.Line)
            {
                yield return request;
            }
            else if (status == LineStatus.End)
            {
                yield break;
            }
            else
            {
                await _lines.FillAsync(cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>Releases the buffer and, unless told to leave it open, the stream.</summary>
    public void Dispose() => _lines.Dispose();

    /// <summary>Reads header lines from the buffer (<see cref="TraceHeaderParser"/>).</summary>
    /// <returns><see langword="true"/> once the version and column lines have been read.</returns>
    private bool TryReadHeader()
    {
        if (!_header.TryRead())
        {
            return false;
        }

        _requests ??= new TraceLineParser(_lines, _header.Columns);
        return true;
    }

    private LineStatus TryReadBuffered(out TraceRequest request)
    {
        while (true)
        {
            var status = _lines.TryTakeLine(out var line);
            if (status != LineStatus.Line)
            {
                request = default;
                return status;
            }

            if (!CsvFields.IsBlankOrComment(line))
            {
                request = _requests!.Parse(line);
                RequestsRead++;
                return LineStatus.Line;
            }
        }
    }

    private static FileStream OpenFile(string path, bool useAsync) =>
        new(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, useAsync ? FileOptions.Asynchronous | FileOptions.SequentialScan : FileOptions.SequentialScan);

    private static IEnumerable<TraceRequest> ReadFileIterator(string path)
    {
        using var reader = Open(path);
        while (reader.TryRead(out var request))
        {
            yield return request;
        }
    }

    private static async IAsyncEnumerable<TraceRequest> ReadFileAsyncIterator(string path, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var reader = await OpenAsync(path, cancellationToken).ConfigureAwait(false);
        await foreach (var request in reader.ReadAllAsync(cancellationToken).ConfigureAwait(false))
        {
            yield return request;
        }
    }
}
