// SPDX-License-Identifier: Apache-2.0

using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>How every command reports a failure: a headline (red on a terminal), then the detail, on standard error.</summary>
internal static class CommandErrors
{
    /// <summary>The longest input echoed back in a message; longer values are cut with an ellipsis.</summary>
    public const int MaxEcho = 80;

    /// <summary>Writes the failure and returns <paramref name="exitCode"/>.</summary>
    public static int Report(IAnsiConsole errors, string headline, string detail, int exitCode)
    {
        errors.MarkupLine($"[red]{Markup.Escape(headline)}[/]");

        // The detail goes to the writer unwrapped: a path or a value split over two lines cannot be copied.
        errors.Profile.Out.Writer.WriteLine(detail);
        errors.Profile.Out.Writer.Flush();
        return exitCode;
    }

    /// <summary>Quotes user input for a message: control and non-ASCII-printable characters escaped, long values cut.</summary>
    public static string Echo(string? value)
    {
        if (value is null)
        {
            return "(none)";
        }

        var text = new System.Text.StringBuilder("'");
        foreach (var c in value.Length > MaxEcho ? value[..MaxEcho] : value)
        {
            text.Append(c is >= ' ' and <= '~' ? c.ToString() : $"\\u{(int)c:x4}");
        }

        return text.Append(value.Length > MaxEcho ? "…'" : "'").ToString();
    }
}
