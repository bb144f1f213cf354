// SPDX-License-Identifier: Apache-2.0

using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>
/// Creates the command's consoles: colours, progress bars and terminal widths only on a terminal; plain text with no
/// escape codes and no hard wrapping when the output is piped or redirected, or when <c>NO_COLOR</c> is set.
/// </summary>
internal static class ConsoleFactory
{
    /// <summary>The width a plain console lays text out in: wide enough that no message is wrapped.</summary>
    public const int PlainWidth = 4096;

    /// <summary>Creates a console writing to <paramref name="writer"/>.</summary>
    /// <param name="writer">Standard output or standard error.</param>
    /// <param name="redirected">Whether that stream is not a terminal.</param>
    /// <param name="environment">Reads an environment variable (<c>NO_COLOR</c>, <c>TERM</c>).</param>
    public static IAnsiConsole Create(TextWriter writer, bool redirected, Func<string, string?> environment)
    {
        var noColor = !string.IsNullOrEmpty(environment("NO_COLOR")) || environment("TERM") == "dumb";
        var plain = redirected || noColor;
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = plain ? AnsiSupport.No : AnsiSupport.Detect,
            ColorSystem = plain ? ColorSystemSupport.NoColors : ColorSystemSupport.Detect,
            Interactive = redirected ? InteractionSupport.No : InteractionSupport.Detect,
            Out = new AnsiConsoleOutput(writer),
        });
        if (redirected)
        {
            console.Profile.Width = PlainWidth;
        }

        return console;
    }

    /// <summary>Gets a value indicating whether the console renders live displays (progress bars); otherwise the runners print a line per run.</summary>
    public static bool IsInteractive(IAnsiConsole console) => console.Profile.Capabilities.Interactive;
}
