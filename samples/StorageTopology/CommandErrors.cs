// SPDX-License-Identifier: Apache-2.0

using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>How every command reports a failure: a red headline, then the detail, on standard error.</summary>
internal static class CommandErrors
{
    /// <summary>Writes the failure and returns <paramref name="exitCode"/>.</summary>
    public static int Report(IAnsiConsole errors, string headline, string detail, int exitCode)
    {
        errors.MarkupLine($"[red]{Markup.Escape(headline)}[/]");
        errors.WriteLine(detail);
        return exitCode;
    }
}
