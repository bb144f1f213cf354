// SPDX-License-Identifier: Apache-2.0

using System.Text;

namespace Cicero.Emulator.Traces;

/// <summary>
/// Reads a trace's header from its line reader: the version line with its properties, then the column line, which
/// gives the order of the fields every request line has. Every problem throws <see cref="TraceFormatException"/> with
/// the file and line.
/// </summary>
internal sealed class TraceHeaderParser
{
    private readonly Utf8LineReader _lines;
    private bool _sawVersion;
    private int _version;
    private Dictionary<string, string>? _properties;

    public TraceHeaderParser(Utf8LineReader lines) => _lines = lines;

    /// <summary>Gets the header once <see cref="TryRead"/> has returned <see langword="true"/>.</summary>
    public TraceHeader? Header { get; private set; }

    /// <summary>Gets the column of each field of a request line, in the column line's order.</summary>
    public TraceLineParser.Column[] Columns { get; private set; } = [];

    private string FileName => _lines.FileName;

    private long LineNumber => _lines.LineNumber;

    /// <summary>Parses header lines from the buffer.</summary>
    /// <returns><see langword="true"/> once the version and column lines have been read.</returns>
    public bool TryRead()
    {
        while (Header is null)
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
                var names = ParseColumnLine(line);
                Header = new TraceHeader(_version, names, _properties!);
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
        var columns = new TraceLineParser.Column[names.Length];
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
            columns[i] = (TraceLineParser.Column)index;
        }

        foreach (var required in TraceColumns.Required)
        {
            if (!seen.Contains(required))
            {
                throw new TraceFormatException(FileName, LineNumber, required, $"required column is missing; the column line has: {string.Join(", ", names)}");
            }
        }

        Columns = columns;
        return names;
    }
}
