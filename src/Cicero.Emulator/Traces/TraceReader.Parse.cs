// SPDX-License-Identifier: Apache-2.0

using System.Text;

namespace Cicero.Emulator.Traces;

/// <summary>The parsing half of <see cref="TraceReader"/>: header, columns and one request per line.</summary>
public sealed partial class TraceReader
{
    private const int MaxFanOut = 1_000_000;

    /// <summary>Parses header lines from the buffer.</summary>
    /// <returns><see langword="true"/> once the version and column lines have been read.</returns>
    private bool TryReadHeaderBuffered()
    {
        while (_header is null)
        {
            var status = _lines.TryTakeLine(out var line);
            if (status == LineStatus.NeedMore)
            {
                return false;
            }

            if (status == LineStatus.End)
            {
                var problem = _sawVersion
                    ? $"the file ends before the column line (for example '{string.Join(',', TraceColumns.All)}')"
                    : $"the file is empty; a Cicero trace starts with '{TraceHeader.Magic} v{TraceHeader.CurrentVersion}'";
                throw new TraceFormatException(FileName, LineNumber + 1, null, problem);
            }

            if (!_sawVersion)
            {
                _properties = ParseVersionLine(line);
                _sawVersion = true;
            }
            else if (!CsvFields.IsBlankOrComment(line))
            {
                var columns = ParseColumnLine(line);
                _header = new TraceHeader(_version, columns, _properties!);
            }
        }

        return true;
    }

    private Dictionary<string, string> ParseVersionLine(ReadOnlySpan<byte> line)
    {
        var text = Encoding.UTF8.GetString(line);
        var tokens = text.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (tokens.Length < 2 || tokens[0] != TraceHeader.Magic || tokens[1].Length < 2 || tokens[1][0] != 'v'
            || !int.TryParse(tokens[1].AsSpan(1), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out _version))
        {
            throw new TraceFormatException(FileName, LineNumber, null,
                $"expected the version line '{TraceHeader.Magic} v{TraceHeader.CurrentVersion}', was {CsvFields.Show(line)}");
        }

        if (_version != TraceHeader.CurrentVersion)
        {
            throw new TraceFormatException(FileName, LineNumber, null,
                $"unsupported trace version {_version}; this library reads version {TraceHeader.CurrentVersion}");
        }

        var properties = new Dictionary<string, string>(StringComparer.Ordinal);
        for (var i = 2; i < tokens.Length; i++)
        {
            var equals = tokens[i].IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0 || !TraceHeader.IsValidKey(tokens[i].AsSpan(0, equals)) || !TraceHeader.IsValidValue(tokens[i].AsSpan(equals + 1)))
            {
                throw new TraceFormatException(FileName, LineNumber, null,
                    $"expected properties as key=value (key: lower-case letters, digits, '_', '-', '.'), was \"{CsvFields.Printable(tokens[i])}\"");
            }

            properties[tokens[i][..equals]] = tokens[i][(equals + 1)..];
        }

        return properties;
    }

    private string[] ParseColumnLine(ReadOnlySpan<byte> line)
    {
        var names = Encoding.UTF8.GetString(line).Split(',', StringSplitOptions.TrimEntries);
        var columns = new Column[names.Length];
        var seen = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < names.Length; i++)
        {
            var index = -1;
            for (var k = 0; k < TraceColumns.All.Count; k++)
            {
                if (TraceColumns.All[k] == names[i])
                {
                    index = k;
                }
            }

            if (index < 0)
            {
                throw new TraceFormatException(FileName, LineNumber, CsvFields.Printable(names[i]), $"unknown column; known: {string.Join(", ", TraceColumns.All)}");
            }

            if (!seen.Add(names[i]))
            {
                throw new TraceFormatException(FileName, LineNumber, names[i], "the column appears twice");
            }

            // TraceColumns.All lists the columns in the enum's order.
            columns[i] = (Column)index;
        }

        foreach (var required in TraceColumns.Required)
        {
            if (!seen.Contains(required))
            {
                throw new TraceFormatException(FileName, LineNumber, required, $"required column is missing; the column line has: {string.Join(", ", names)}");
            }
        }

        _columns = columns;
        return names;
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
                request = ParseRequest(line);
                RequestsRead++;
                return LineStatus.Line;
            }
        }
    }

    private TraceRequest ParseRequest(ReadOnlySpan<byte> line)
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
