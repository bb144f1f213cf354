// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Simulation.Topology;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>What a run stopped by Ctrl-C or SIGTERM says: in the report (marked partial) and on the console.</summary>
internal static class PartialRun
{
    /// <summary>Describes the stop for the report, or <see langword="null"/> when the run was not stopped.</summary>
    public static string? Describe(StopSignal stop, IEnumerable<string> configurations, IReadOnlyList<TopologyRunResult> results)
    {
        if (!stop.Token.IsCancellationRequested)
        {
            return null;
        }

        var ran = results.Select(static r => r.Configuration).ToHashSet(StringComparer.Ordinal);
        var skipped = configurations.Where(c => !ran.Contains(c)).ToList();
        var stopped = results.Where(static r => r.Interrupted).Select(static r => r.Configuration).ToList();
        var text = $"stopped by {stop.Signal}";
        if (stopped.Count > 0)
        {
            text += string.Create(CultureInfo.InvariantCulture, $" during {string.Join(", ", stopped)} (at {results.First(static r => r.Interrupted).EndSeconds:0.0} s of run time)");
        }

        return skipped.Count == 0 ? text : text + "; not run: " + string.Join(", ", skipped);
    }

    /// <summary>
    /// Gets the token report writing obeys: the stop signal's, unless a signal already stopped the runs (the report is
    /// then written whole, and a second signal ends the process).
    /// </summary>
    public static CancellationToken ForReport(StopSignal stop) => stop.Token.IsCancellationRequested ? CancellationToken.None : stop.Token;

    /// <summary>Says the report is partial when a signal stopped its writing; otherwise returns <paramref name="partial"/>.</summary>
    public static string? AfterReport(StopSignal stop, string? partial, ReportFiles files) =>
        files.FiguresNotDrawn == 0 ? partial : string.Create(CultureInfo.InvariantCulture, $"stopped by {stop.Signal} while writing the report; {files.FiguresNotDrawn} figure(s) not drawn");

    /// <summary>Returns the exit code: <see cref="ExitCodes.Interrupted"/> after saying so when the run was stopped.</summary>
    public static int Finish(IAnsiConsole errors, string? partial)
    {
        if (partial is null)
        {
            return ExitCodes.Success;
        }

        return CommandErrors.Report(errors, "The report is partial.", partial + ".", ExitCodes.Interrupted);
    }
}
