// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology;

/// <summary>The command's exit codes (also listed in docs/emulator.md).</summary>
internal static class ExitCodes
{
    /// <summary>The report was written.</summary>
    public const int Success = 0;

    /// <summary>The command line was not understood (System.CommandLine's own code for parse errors).</summary>
    public const int InvalidCommandLine = 1;

    /// <summary>The scenario was not found, or is invalid (the validation messages are printed).</summary>
    public const int InvalidScenario = 2;

    /// <summary>The live runner's addresses file could not be read.</summary>
    public const int InvalidAddresses = 3;

    /// <summary>A run failed, e.g. its conservation check found a request without an outcome.</summary>
    public const int RunFailed = 4;

    /// <summary>The report could not be written (the output folder is not writable, say).</summary>
    public const int ReportFailed = 5;

    /// <summary>A trace file could not be read or imported (the message names the file, line and field).</summary>
    public const int InvalidTrace = 6;

    /// <summary>An unexpected failure (a bug): the message names the exception; nothing reaches the user as a stack trace.</summary>
    public const int InternalError = 7;

    /// <summary>Stopped by Ctrl-C (SIGINT) or SIGTERM: the report covers what ran and is marked partial (128 + SIGINT, the shells' convention).</summary>
    public const int Interrupted = 130;
}
