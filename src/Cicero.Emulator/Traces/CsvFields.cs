// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;

namespace Cicero.Emulator.Traces;

/// <summary>
/// Comma splitting and field parsing on UTF-8 spans, shared by the trace reader and the importers. Fields are never
/// quoted: the Cicero format restricts names so they need no quoting, and the public traces we import have none.
/// </summary>
internal static class CsvFields
{
    private const int ShownChars = 40;

    /// <summary>Splits a line at commas and trims spaces and tabs around each field.</summary>
    /// <returns>The number of fields; only the first <paramref name="ranges"/>.Length are stored.</returns>
    public static int Split(ReadOnlySpan<byte> line, Span<Range> ranges)
    {
        var count = 0;
        var start = 0;
        while (true)
        {
            var comma = line[start..].IndexOf((byte)',');
            var end = comma < 0 ? line.Length : start + comma;
            if (count < ranges.Length)
            {
                ranges[count] = Trim(line, start, end);
            }

            count++;
            if (comma < 0)
            {
                return count;
            }

            start = end + 1;
        }
    }

    /// <summary>Gets whether a line is blank or a <c>#</c> comment.</summary>
    public static bool IsBlankOrComment(ReadOnlySpan<byte> line)
    {
        var trimmed = line.Trim(" \t"u8);
        return trimmed.IsEmpty || trimmed[0] == (byte)'#';
    }

    public static bool TryParseNonNegativeNumber(ReadOnlySpan<byte> field, out double value)
    {
        // NumberStyles.Float accepts "1.5", "1e3" and a sign; the checks below reject NaN, infinities and negatives.
        if (double.TryParse(field, NumberStyles.Float, CultureInfo.InvariantCulture, out value) && double.IsFinite(value) && value >= 0)
        {
            value += 0.0; // turns -0 into 0
            return true;
        }

        return false;
    }

    public static bool TryParseNonNegativeInteger(ReadOnlySpan<byte> field, out long value) =>
        long.TryParse(field, NumberStyles.None, CultureInfo.InvariantCulture, out value);

    /// <summary>Formats a field for an error message: quoted, shortened, and only printable ASCII (anything else escaped), so binary input never reaches a terminal.</summary>
    public static string Show(ReadOnlySpan<byte> field)
    {
        var text = Encoding.UTF8.GetString(field);
        return text.Length <= ShownChars ? $"\"{Printable(text)}\"" : $"\"{Printable(text[..ShownChars])}...\" ({text.Length} chars)";
    }

    /// <summary>Escapes every character outside printable ASCII as <c>\uXXXX</c> (control characters, escape sequences, invalid UTF-8).</summary>
    public static string Printable(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var clean = true;
        foreach (var c in text)
        {
            clean &= c is >= ' ' and <= '~';
        }

        if (clean)
        {
            return text;
        }

        var escaped = new StringBuilder(text.Length + 16);
        foreach (var c in text)
        {
            if (c is >= ' ' and <= '~')
            {
                escaped.Append(c);
            }
            else
            {
                escaped.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:x4}");
            }
        }

        return escaped.ToString();
    }

    private static Range Trim(ReadOnlySpan<byte> line, int start, int end)
    {
        while (start < end && line[start] is (byte)' ' or (byte)'\t')
        {
            start++;
        }

        while (end > start && line[end - 1] is (byte)' ' or (byte)'\t')
        {
            end--;
        }

        return new Range(start, end);
    }
}
