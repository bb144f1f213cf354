// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces;

/// <summary>
/// The first two lines of a Cicero trace: the version line (<c>#cicero-trace v1 source=meta-block input=x.csv</c>)
/// with optional <c>key=value</c> properties, and the column line.
/// </summary>
public sealed class TraceHeader
{
    /// <summary>The version this library writes and reads.</summary>
    public const int CurrentVersion = 1;

    /// <summary>The text that starts every Cicero trace.</summary>
    public const string Magic = "#cicero-trace";

    /// <summary>The property naming the importer that produced the trace (for example <c>meta-block</c>).</summary>
    public const string SourceProperty = "source";

    /// <summary>The property naming the file the trace was imported from.</summary>
    public const string InputProperty = "input";

    /// <summary>Creates the header the writer writes: the current version, every column, and the given properties.</summary>
    /// <param name="properties">Provenance, for example <see cref="SourceProperty"/>; keys are lower-case
    /// letters, digits, '_', '-' and '.', values are non-empty and contain no white space.</param>
    /// <exception cref="ArgumentException">A key or value breaks these rules.</exception>
    public TraceHeader(IReadOnlyDictionary<string, string>? properties = null)
        : this(CurrentVersion, TraceColumns.All, Copy(properties))
    {
    }

    internal TraceHeader(int version, IReadOnlyList<string> columns, IReadOnlyDictionary<string, string> properties)
    {
        Version = version;
        Columns = columns;
        Properties = properties;
    }

    /// <summary>Gets the format version.</summary>
    public int Version { get; }

    /// <summary>Gets the columns in file order (the reader accepts any order and any subset holding the required ones).</summary>
    public IReadOnlyList<string> Columns { get; }

    /// <summary>Gets the version line's properties.</summary>
    public IReadOnlyDictionary<string, string> Properties { get; }

    /// <summary>Gets the <see cref="SourceProperty"/> property, if any.</summary>
    public string? Source => Properties.GetValueOrDefault(SourceProperty);

    internal static bool IsValidKey(ReadOnlySpan<char> key)
    {
        if (key.IsEmpty)
        {
            return false;
        }

        foreach (var c in key)
        {
            if (!(char.IsAsciiLetterLower(c) || char.IsAsciiDigit(c) || c is '_' or '-' or '.'))
            {
                return false;
            }
        }

        return true;
    }

    internal static bool IsValidValue(ReadOnlySpan<char> value)
    {
        if (value.IsEmpty)
        {
            return false;
        }

        foreach (var c in value)
        {
            if (char.IsWhiteSpace(c) || char.IsControl(c))
            {
                return false;
            }
        }

        return true;
    }

    private static Dictionary<string, string> Copy(IReadOnlyDictionary<string, string>? properties)
    {
        var copy = new Dictionary<string, string>(StringComparer.Ordinal);
        if (properties is null)
        {
            return copy;
        }

        foreach (var (key, value) in properties)
        {
            if (!IsValidKey(key))
            {
                throw new ArgumentException($"Property key '{key}' may contain only lower-case letters, digits, '_', '-' and '.'.", nameof(properties));
            }

            if (!IsValidValue(value))
            {
                throw new ArgumentException($"Property '{key}' must have a non-empty value without white space, was '{value}'.", nameof(properties));
            }

            copy[key] = value;
        }

        return copy;
    }
}
