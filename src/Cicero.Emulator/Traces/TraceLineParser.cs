// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces;

/// <summary>
/// Parses a trace's request lines against its column line: the fields from UTF-8 spans, tenant and operation names
/// interned (nothing allocated per line once a name has been seen), arrivals checked to be in time order. Every
/// problem throws <see cref="TraceFormatException"/> naming the file, line and field.
/// </summary>
internal sealed class TraceLineParser
{
    private const int MaxFanOut = 1_000_000;
    private readonly Utf8LineReader _lines;
    private readonly Column[] _columns;
    private readonly NameInterner _names = new();
    private double _previousArrivalMs;

    public TraceLineParser(Utf8LineReader lines, Column[] columns)
    {
        _lines = lines;
        _columns = columns;
    }

    /// <summary>The trace's columns, in the order of <see cref="TraceColumns.All"/>.</summary>
    internal enum Column
    {
        ArrivalMs,
        Tenant,
        Operation,
        RequestBytes,
        ResponseBytes,
        FanOut,
        AuthMs,
        PsMs,
        BsMs,
    }

    private string FileName => _lines.FileName;

    private long LineNumber => _lines.LineNumber;

    /// <summary>Parses one request line (not blank, not a comment).</summary>
    public TraceRequest Parse(ReadOnlySpan<byte> line)
    {
        // One slot more than the columns, to notice extra fields without splitting them.
        Span<Range> ranges = stackalloc Range[TraceColumns.All.Count + 1];
        var count = CsvFields.Split(line, ranges);
        if (count != _columns.Length)
        {
            throw new TraceFormatException(FileName, LineNumber, null, $"expected {_columns.Length} fields as in the column line, found {count}");
        }

        double arrival = 0;
        string tenant = string.Empty, operation = string.Empty;
        long requestBytes = 0, responseBytes = 0;
        int? fanOut = null;
        double? authMs = null, psMs = null, bsMs = null;
        for (var i = 0; i < count; i++)
        {
            var field = line[ranges[i]];
            switch (_columns[i])
            {
                case Column.ArrivalMs:
                    arrival = ParseArrival(field);
                    break;
                case Column.Tenant:
                    tenant = ParseName(field, TraceColumns.Tenant);
                    break;
                case Column.Operation:
                    operation = ParseName(field, TraceColumns.Operation);
                    break;
                case Column.RequestBytes:
                    requestBytes = ParseBytes(field, TraceColumns.RequestBytes);
                    break;
                case Column.ResponseBytes:
                    responseBytes = ParseBytes(field, TraceColumns.ResponseBytes);
                    break;
                case Column.FanOut:
                    fanOut = ParseFanOut(field);
                    break;
                case Column.AuthMs:
                    authMs = ParseHint(field, TraceColumns.AuthMs);
                    break;
                case Column.PsMs:
                    psMs = ParseHint(field, TraceColumns.PsMs);
                    break;
                default:
                    bsMs = ParseHint(field, TraceColumns.BsMs);
                    break;
            }
        }

        return new TraceRequest(arrival, tenant, operation, requestBytes, responseBytes, fanOut, authMs, psMs, bsMs);
    }

    private double ParseArrival(ReadOnlySpan<byte> field)
    {
        if (!CsvFields.TryParseNonNegativeNumber(field, out var value))
        {
            throw FieldError(TraceColumns.ArrivalMs, "expected a non-negative number", field);
        }

        if (value < _previousArrivalMs)
        {
            throw FieldError(TraceColumns.ArrivalMs, $"arrivals must not go back in time; the previous request arrived at {_previousArrivalMs.ToString(System.Globalization.CultureInfo.InvariantCulture)}", field);
        }

        _previousArrivalMs = value;
        return value;
    }

    private string ParseName(ReadOnlySpan<byte> field, string column)
    {
        if (!TraceNames.IsValid(field))
        {
            throw FieldError(column, $"expected 1-{TraceNames.MaxLength} letters, digits, '-', '_', '.' or '+'", field);
        }

        return _names.Intern(field);
    }

    private long ParseBytes(ReadOnlySpan<byte> field, string column)
    {
        if (field.IsEmpty)
        {
            return 0;
        }

        return CsvFields.TryParseNonNegativeInteger(field, out var value) ? value : throw FieldError(column, "expected a non-negative integer", field);
    }

    private int? ParseFanOut(ReadOnlySpan<byte> field)
    {
        if (field.IsEmpty)
        {
            return null;
        }

        return CsvFields.TryParseNonNegativeInteger(field, out var value) && value <= MaxFanOut
            ? (int)value
            : throw FieldError(TraceColumns.FanOut, $"expected an integer from 0 to {MaxFanOut} or nothing", field);
    }

    private double? ParseHint(ReadOnlySpan<byte> field, string column)
    {
        if (field.IsEmpty)
        {
            return null;
        }

        return CsvFields.TryParseNonNegativeNumber(field, out var value) ? value : throw FieldError(column, "expected a non-negative number or nothing", field);
    }

    private TraceFormatException FieldError(string column, string expected, ReadOnlySpan<byte> field) =>
        new(FileName, LineNumber, column, $"{expected}, was {CsvFields.Show(field)}");
}
