// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces;

/// <summary>
/// The rule for tenant and operation names: 1 to <see cref="MaxLength"/> letters, digits, '-', '_', '.' and '+', the
/// characters a scenario allows in workflow names, so a trace's names become workflow names unchanged.
/// </summary>
public static class TraceNames
{
    /// <summary>The longest name allowed, in characters.</summary>
    public const int MaxLength = 128;

    /// <summary>Gets whether a name follows the rule.</summary>
    /// <param name="name">The name.</param>
    /// <returns><see langword="true"/> when it does.</returns>
    public static bool IsValid(ReadOnlySpan<char> name)
    {
        if (name.IsEmpty || name.Length > MaxLength)
        {
            return false;
        }

        foreach (var c in name)
        {
            if (!IsAllowed(c))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Replaces every character the rule does not allow with '_' and shortens to <see cref="MaxLength"/>.</summary>
    /// <param name="name">Any text.</param>
    /// <returns>A valid name; "_" for an empty input.</returns>
    public static string Sanitize(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (IsValid(name))
        {
            return name;
        }

        if (name.Length == 0)
        {
            return "_";
        }

        var length = Math.Min(name.Length, MaxLength);
        return string.Create(length, name, static (span, source) =>
        {
            for (var i = 0; i < span.Length; i++)
            {
                span[i] = IsAllowed(source[i]) ? source[i] : '_';
            }
        });
    }

    internal static bool IsValid(ReadOnlySpan<byte> utf8)
    {
        if (utf8.IsEmpty || utf8.Length > MaxLength)
        {
            return false;
        }

        foreach (var b in utf8)
        {
            if (b >= 0x80 || !IsAllowed((char)b))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsAllowed(char c) => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or '+';
}
