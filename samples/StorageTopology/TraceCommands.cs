// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Globalization;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Reports.Verdicts;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;
using Cicero.Emulator.Traces.Replay;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>The <c>import</c> and <c>deadline</c> commands: public production traces into Cicero's format, and Table 5.4.</summary>
internal static class TraceCommands
{
    public static Command CreateImport(IAnsiConsole console, IAnsiConsole errors)
    {
        var format = new Option<string>("--format", "-f")
        {
            Description = "The input's format: " + string.Join(", ", TraceImport.Formats) + " (traces/README.md).",
            Required = true,
        };
        format.AcceptOnlyFromAmong([.. TraceImport.Formats]);
        var input = new Option<string>("--input", "-i") { Description = "The public trace file (CSV).", Required = true };
        var output = new Option<string>("--output", "-o") { Description = "The Cicero trace to write (format v1, traces/README.md).", Required = true };
        var command = new Command("import", "Converts a public production trace into Cicero's trace format.") { format, input, output };
        command.SetAction(parse => Import(console, errors, parse.GetValue(format)!, parse.GetValue(input)!, parse.GetValue(output)!));
        return command;
    }

    public static Command CreateDeadline(IAnsiConsole console, IAnsiConsole errors)
    {
        var trace = new Option<string?>("--trace", "-t") { Description = "A Cicero trace (e.g. written by 'import')." };
        var format = new Option<string?>("--format", "-f") { Description = "Import on the fly instead: the public trace's format (" + string.Join(", ", TraceImport.Formats) + ")." };
        var input = new Option<string?>("--input", "-i") { Description = "Import on the fly instead: the public trace file." };
        var k = OptionValues.Positive("--k", "Deadline = k x the request's completion time alone.", 4);
        var loads = new Option<string>("--loads")
        {
            Description = "Comma-separated load levels: speed-ups of the recorded arrival times (or client counts with --closed-loop).",
            DefaultValueFactory = _ => "2,8,16,24",
        };
        var closedLoop = new Option<bool>("--closed-loop") { Description = "Replay with N clients drawing requests in trace order instead of at recorded times." };
        var repeat = OptionValues.Int("--repeat", "Play the trace this many times back to back (a short sample needs a few for rate control to act).", 4, minimum: 1);
        var seed = OptionValues.OptionalInt("--seed", "The simulation's seed.");
        var permits = OptionValues.Int("--permits", "Permits per resource (disk, compute, cpu) of the replay topology.", 1, minimum: 1);
        var output = new Option<string>("--output", "-o") { Description = "The folder for deadline.html, .csv, .json and .png.", DefaultValueFactory = _ => Path.Combine("results", "deadline") };
        var command = new Command(
            "deadline",
            "The deadline experiment (dissertation Table 5.4): replays a trace in simulation at several load levels under Baseline, FIFO+RC, EDF+RC and LSTF+RC, with deadline = k x each request's time alone, and reports latency normalised by deadline.")
        {
            trace, format, input, k, loads, closedLoop, repeat, seed, permits, output,
        };
        command.SetAction(parse => Deadline(
            console,
            errors,
            new DeadlineSettings(
                parse.GetValue(trace), parse.GetValue(format), parse.GetValue(input), parse.GetValue(k), parse.GetValue(loads)!, parse.GetValue(closedLoop),
                parse.GetValue(repeat), parse.GetValue(seed), parse.GetValue(permits), parse.GetValue(output)!)));
        return command;
    }

    private static int Import(IAnsiConsole console, IAnsiConsole errors, string format, string input, string output)
    {
        // The import renames a finished temporary file over the output: never over a link, a FIFO or a device.
        if (OutputPaths.CheckFile(output) is { } unwritable)
        {
            return CommandErrors.Report(errors, "Cannot write the trace.", unwritable, ExitCodes.ReportFailed);
        }

        try
        {
            var started = TimeProvider.System.GetTimestamp();
            var summary = ImportProgress.Run(console, format, input, output);
            console.MarkupLine(string.Create(
                CultureInfo.InvariantCulture,
                $"Imported [bold]{summary.Requests:N0}[/] requests ({summary.Tenants} tenants, {summary.Operations} operations, {summary.LastArrivalMs / 1000:0.###} s of arrivals) in {TimeProvider.System.GetElapsedTime(started).TotalSeconds:0.0} s."));
            console.WriteLine($"Trace: {Path.GetFullPath(output)}");
            return ExitCodes.Success;
        }
        catch (Exception ex) when (ex is TraceFormatException or IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot import the trace.", ex.Message, ExitCodes.InvalidTrace);
        }
    }

    private static int Deadline(IAnsiConsole console, IAnsiConsole errors, DeadlineSettings settings)
    {
        if (!TryParseLevels(settings.Loads, settings.ClosedLoop, out var levels, out var problem)
            || !TraceSource.TryCreate(settings.Trace, settings.Format, settings.Input, out var source, out var title, out problem))
        {
            return CommandErrors.Report(errors, "Invalid options.", problem!, ExitCodes.InvalidCommandLine);
        }

        if (settings.Repeat < 1 || settings.Permits < 1 || settings.Permits > ScenarioLimits.MaxCapacity || !(settings.K > 0 && settings.K <= MaxK))
        {
            return CommandErrors.Report(
                errors,
                "Invalid options.",
                string.Create(CultureInfo.InvariantCulture, $"--repeat must be at least 1 (was {settings.Repeat}), --permits between 1 and {ScenarioLimits.MaxCapacity:N0} (was {settings.Permits:N0}) and --k a number in (0, {MaxK:G}] (was {settings.K:G})."),
                ExitCodes.InvalidCommandLine);
        }

        if (OutputPaths.CheckFolder(settings.Output) is { } unwritable)
        {
            return CommandErrors.Report(errors, "Cannot write the report.", unwritable, ExitCodes.ReportFailed);
        }

        DeadlineExperimentResult result;
        TraceReplayPlan plan;
        var started = TimeProvider.System.GetTimestamp();
        using var stop = new StopSignal();
        try
        {
            // One pass over the trace sizes the run before the repeated plan is made: the limits hold before the work starts.
            if (DeadlineLimits.Check(TraceReplayPlanner.Create(source!()), settings.Repeat, settings.ClosedLoop, levels) is { } tooBig)
            {
                return CommandErrors.Report(errors, "Invalid options.", tooBig, ExitCodes.InvalidCommandLine);
            }

            plan = DeadlineExperiment.UseResources(TraceReplayPlanner.Create(TraceRepetition.BackToBack(source!, settings.Repeat)), settings.Permits);
            console.MarkupLine(string.Create(
                CultureInfo.InvariantCulture,
                $"Deadline experiment on [bold]{Markup.Escape(title!)}[/]: {plan.RequestCount:N0} requests ({settings.Repeat} x the trace), k = {settings.K:0.##}, {(settings.ClosedLoop ? "clients" : "speed-ups")} {string.Join(", ", levels)}, simulated."));
            result = DeadlineProgress.Run(console, plan, new DeadlineExperimentOptions { K = settings.K, LoadLevels = levels, ClosedLoop = settings.ClosedLoop, Seed = settings.Seed, Stop = stop.Token });
        }
        catch (Exception ex) when (ex is TraceFormatException or IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot read the trace.", ex.Message, ExitCodes.InvalidTrace);
        }
        catch (Cicero.Emulator.Simulation.Topology.ConservationException ex)
        {
            return CommandErrors.Report(errors, "A run failed its conservation check.", ex.Message, ExitCodes.RunFailed);
        }

        var expected = levels.Count * DeadlineExperiment.DefaultNames.Count;
        var partial = stop.Token.IsCancellationRequested
            ? $"stopped by {stop.Signal} after {result.Rows.Count} of {expected} runs (load level and configuration); the table holds those that finished"
            : null;
        if (result.Rows.Count == 0)
        {
            return CommandErrors.Report(errors, "Stopped before any run finished.", partial ?? "No report was written.", ExitCodes.Interrupted);
        }

        console.WriteLine(result.ToTable());
        if (result.EstimateOverIsolated is { } ratio)
        {
            console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"LSTF's remaining-time base over the time alone: median {ratio.P50:0.00}, p95 {ratio.P95:0.00}, max {ratio.Max:0.00} ({ratio.Count:N0} requests)."));
        }

        console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Ran in {TimeProvider.System.GetElapsedTime(started).TotalSeconds:0.0} s."));
        try
        {
            if (OutputPaths.CheckFolder(settings.Output) is { } replaced)
            {
                return CommandErrors.Report(errors, "Cannot write the report.", replaced, ExitCodes.ReportFailed);
            }

            var files = DeadlineReportWriter.Write(result, settings.Output, title!, partial);
            var verdict = DeadlineVerdict.Of(result);
            foreach (var sentence in verdict.Sentences)
            {
                console.Profile.Out.Writer.WriteLine(sentence);
            }

            console.WriteLine($"Report: {files.Html}");
            var exit = PartialRun.Finish(errors, partial);
            console.Profile.Out.Writer.WriteLine("winner: " + (verdict.Winner ?? NoiseVerdict.NoWinner));
            console.Profile.Out.Writer.Flush();
            return exit;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot write the report.", ex.Message, ExitCodes.ReportFailed);
        }
    }

    /// <summary>The largest deadline factor: a deadline a million times the time alone is already no deadline.</summary>
    private const double MaxK = 1e6;

    private static bool TryParseLevels(string text, bool closedLoop, out List<double> levels, out string? problem)
    {
        levels = [];
        foreach (var part in text.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            if (!double.TryParse(part, NumberStyles.Float, CultureInfo.InvariantCulture, out var level) || !(level > 0) || !double.IsFinite(level)
                || (closedLoop && level != Math.Floor(level)))
            {
                problem = $"--loads: '{part}' is not a positive {(closedLoop ? "whole number of clients" : "speed-up")}.";
                return false;
            }

            levels.Add(level);
        }

        problem = levels.Count == 0 ? "--loads: give at least one load level, e.g. 2,8,16,24." : null;
        return problem is null;
    }

    private sealed record DeadlineSettings(
        string? Trace, string? Format, string? Input, double K, string Loads, bool ClosedLoop, int Repeat, int? Seed, int Permits, string Output);
}
