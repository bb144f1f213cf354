// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;

namespace Cicero.Emulator.Reports.Csv;

/// <summary>
/// Builds one CSV file (RFC 4180: comma-separated, fields with commas, quotes or line breaks quoted, LF line ends).
/// Numbers are written in the invariant culture with the shortest text that reads back to the same double; NaN and
/// missing values are empty fields, which spreadsheets and pandas read as missing.
/// </summary>
internal sealed class CsvTable
{
    private readonly StringBuilder _text = new();
    private readonly int _columns;
    private int _field;

    public CsvTable(params string[] header)
    {
        _columns = header.Length;
        foreach (var name in header)
        {
            Field(name);
        }

        EndRow();
        Rows = 0;
    }

    /// <summary>Gets the data rows written, header excluded.</summary>
    public int Rows { get; private set; }

    public CsvTable Field(string? value)
    {
        if (_field > 0)
        {
            _text.Append(',');
        }

        _field++;
        if (value is null)
        {
            return this;
        }

        if (value.AsSpan().IndexOfAny(",\"\n\r") >= 0)
        {
            _text.Append('"').Append(value.Replace("\"", "\"\"", StringComparison.Ordinal)).Append('"');
        }
        else
        {
            _text.Append(value);
        }

        return this;
    }

    public CsvTable Field(long value) => Field(value.ToString(CultureInfo.InvariantCulture));

    public CsvTable Field(double? value) =>
        Field(value is { } number && double.IsFinite(number) ? number.ToString("R", CultureInfo.InvariantCulture) : null);

    public void EndRow()
    {
        if (_field != _columns)
        {
            throw new InvalidOperationException($"A CSV row has {_field} fields; the header has {_columns}.");
        }

        _text.Append('\n');
        _field = 0;
        Rows++;
    }

    public override string ToString() => _text.ToString();
}
