// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Text;

namespace Cicero.Emulator.Traces.Importers;

/// <summary>
/// A public CSV trace read row by row with a header line: columns are found by name (the Meta KV files order them
/// differently), and every parse error names the input file, line and column.
/// </summary>
/// <remarks>Not thread-safe. Holds one pooled line buffer and the current row's field ranges.</remarks>
internal sealed class CsvInput : IDisposable
{
    private readonly Utf8LineReader _lines;
    private readonly string[] _columns;
    private readonly Range[] _ranges;
    private byte[] _row = ArrayPool<byte>.Shared.Rent(1024);
    private int _rowLength;

    public CsvInput(Stream stream, string fileName)
    {
        // The caller owns the stream (ITraceImporter's contract), so the line reader leaves it open.
        _lines = new Utf8LineReader(stream, fileName, leaveOpen: true);
        if (!TryTakeLine(out var header))
        {
            throw new TraceFormatException(fileName, 1, null, "the file is empty; expected a header line with column names");
        }

        _columns = [.. Encoding.UTF8.GetString(header).Split(',', StringSplitOptions.TrimEntries).Select(CsvFields.Printable)];
        _ranges = new Range[_columns.Length + 1];
    }

    public string FileName => _lines.FileName;

    /// <summary>Gets the 1-based line number of the current row.</summary>
    public long Line => _lines.LineNumber;

    /// <summary>Gets the current row's field in a column.</summary>
    public ReadOnlySpan<byte> this[int column] => _row.AsSpan(0, _rowLength)[_ranges[column]];

    /// <summary>Finds a column the importer needs.</summary>
    /// <exception cref="TraceFormatException">The header has no such column.</exception>
    public int Require(string column)
    {
        var index = Array.IndexOf(_columns, column);
        return index >= 0
            ? index
            : throw new TraceFormatException(FileName, 1, column, $"required column is missing; the header has: {string.Join(", ", _columns.Take(20).Select(static c => c.Length > 40 ? c[..40] + "..." : c))}{(_columns.Length > 20 ? ", ..." : string.Empty)}");
    }

    /// <summary>Reads the next non-blank row.</summary>
    /// <returns><see langword="false"/> at the end of the file.</returns>
    /// <exception cref="TraceFormatException">The row has a different number of fields than the header.</exception>
    public bool TryReadRow()
    {
        ReadOnlySpan<byte> line;
        do
        {
            if (!TryTakeLine(out line))
            {
                return false;
            }
        }
        while (line.Trim(" \t"u8).IsEmpty);

        if (line.Length > _row.Length)
        {
            ArrayPool<byte>.Shared.Return(_row);
            _row = ArrayPool<byte>.Shared.Rent(line.Length);
        }

        line.CopyTo(_row);
        _rowLength = line.Length;
        var count = CsvFields.Split(_row.AsSpan(0, _rowLength), _ranges);
        if (count != _columns.Length)
        {
            throw new TraceFormatException(FileName, Line, null, $"expected {_columns.Length} fields as in the header, found {count}");
        }

        return true;
    }

    public long Integer(int column, long min = 0, long max = long.MaxValue)
    {
        var field = this[column];
        return CsvFields.TryParseNonNegativeInteger(field, out var value) && value >= min && value <= max
            ? value
            : throw Error(column, max < long.MaxValue ? $"expected an integer from {min} to {max.ToString("N0", System.Globalization.CultureInfo.InvariantCulture)}" : min == 0 ? "expected a non-negative integer" : $"expected an integer >= {min}");
    }

    public TraceFormatException Error(int column, string expected) =>
        new(FileName, Line, _columns[column], $"{expected}, was {CsvFields.Show(this[column])}");

    public void Dispose()
    {
        _lines.Dispose();
        ArrayPool<byte>.Shared.Return(_row);
        _row = [];
    }

    private bool TryTakeLine(out ReadOnlySpan<byte> line)
    {
        while (true)
        {
            switch (_lines.TryTakeLine(out line))
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
}
