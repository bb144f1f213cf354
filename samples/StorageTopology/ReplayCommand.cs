// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Globalization;
using Cicero.Emulator.Live;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;
using Cicero.Emulator.Traces.Replay;
using Cicero.Policies.Scheduling;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>The <c>replay</c> command: a trace replayed under baseline and rate control, in either runner, with the usual report.</summary>
internal static class ReplayCommand
{
    public static Command Create(IAnsiConsole console, IAnsiConsole errors)
    {
        var trace = new Option<string?>("--trace", "-t") { Description = "A Cicero trace (e.g. written by 'import')." };
        var format = new Option<string?>("--format", "-f") { Description = "Import on the fly instead: the public trace's format (" + string.Join(", ", TraceImport.Formats) + ")." };
        var input = new Option<string?>("--input", "-i") { Description = "Import on the fly instead: the public trace file." };
        var speedUp = OptionValues.Positive("--speed-up", "Open loop: arrivals this many times faster than recorded.", 1);
        var clients = OptionValues.OptionalInt("--clients", "Closed loop with this many clients, each sending the next request in trace order when its previous one ends (instead of open loop at the recorded times).", minimum: 1);
        var runner = new Option<string>("--runner") { Description = "simulated or live.", DefaultValueFactory = _ => StorageTopologyCommand.Simulated };
        runner.AcceptOnlyFromAmong(StorageTopologyCommand.Simulated, StorageTopologyCommand.Live);
        var seed = OptionValues.OptionalInt("--seed", "The run's seed.");
        var output = new Option<string>("--output", "-o") { Description = "The report's folder.", DefaultValueFactory = _ => Path.Combine("results", "replay") };
        var command = new Command(
            "replay",
            "Replays a trace on the default topology under 'baseline' (no rate control, FIFO, never drop early) and 'rc' (rate control, deadline-feasibility drops), open loop at the recorded times or closed loop (--clients), and writes the usual report.")
        {
            trace, format, input, speedUp, clients, runner, seed, output,
        };
        command.SetAction(parse => Run(
            console,
            errors,
            parse.GetValue(trace),
            parse.GetValue(format),
            parse.GetValue(input),
            parse.GetValue(speedUp),
            parse.GetValue(clients),
            parse.GetValue(runner)!,
            parse.GetValue(seed),
            parse.GetValue(output)!));
        return command;
    }

    private static int Run(IAnsiConsole console, IAnsiConsole errors, string? trace, string? format, string? input, double speedUp, int? clients, string runner, int? seed, string output)
    {
        if (!TraceSource.TryCreate(trace, format, input, out var source, out _, out var problem))
        {
            return CommandErrors.Report(errors, "Invalid options.", problem!, ExitCodes.InvalidCommandLine);
        }

        ConfigurationSpec[] configurations =
        [
            new() { Name = "baseline", RateControl = false, Scheduler = SubtaskSchedulerNames.Fifo, DropPolicy = "never" },
            new() { Name = "rc" },
        ];
        var started = TimeProvider.System.GetTimestamp();
        var results = new List<TopologyRunResult>();
        TraceReplayPlan plan;
        using var stop = new StopSignal();
        try
        {
            plan = TraceReplayPlanner.Create(source!());
            console.MarkupLine(string.Create(
                CultureInfo.InvariantCulture,
                $"Replaying {plan.RequestCount:N0} requests of {plan.Workflows.Count} workflows, {(clients is { } n ? $"closed loop with {n} clients" : $"open loop at {speedUp:0.##}x")}, {runner}."));
            foreach (var configuration in configurations)
            {
                if (stop.Token.IsCancellationRequested)
                {
                    break;
                }

                var result = runner == StorageTopologyCommand.Live
                    ? LiveTopologyRunner.ReplayAsync(plan, configuration, new LiveReplayOptions { ClosedLoopClients = clients, SpeedUp = speedUp }, cancellationToken: stop.Token).GetAwaiter().GetResult()
                    : SimulatedReplay.Run(plan, configuration, new SimulatedReplayOptions { ClosedLoopClients = clients ?? 0, SpeedUp = speedUp, Seed = seed }, cancellationToken: stop.Token);
                results.Add(result);
                console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{configuration.Name}: {result.Requests:N0} requests in {result.EndSeconds:0.0} s{(result.Interrupted ? " (stopped)" : string.Empty)}"));
            }
        }
        catch (Exception ex) when (ex is TraceFormatException or IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot read the trace.", ex.Message, ExitCodes.InvalidTrace);
        }
        catch (ArgumentException ex)
        {
            // The planner's refusals (more workflows than a replay takes) are about the trace, not the command line.
            return CommandErrors.Report(errors, "Cannot replay the trace.", ex.Message, ExitCodes.InvalidTrace);
        }
        catch (ScenarioValidationException ex)
        {
            return CommandErrors.Report(errors, "Cannot replay the trace.", ex.Message, ExitCodes.InvalidScenario);
        }
        catch (ConservationException ex)
        {
            return CommandErrors.Report(errors, "A run failed its conservation check.", ex.Message, ExitCodes.RunFailed);
        }

        var partial = PartialRun.Describe(stop, configurations.Select(static c => c.Name!), results);
        if (results.Count == 0)
        {
            return CommandErrors.Report(errors, "Stopped before any run started.", partial ?? "No report was written.", ExitCodes.Interrupted);
        }

        try
        {
            var files = ReportWriter.Write(results, output, new ReportOptions { Scenario = plan.Scenario, Runner = runner, Partial = partial });
            console.Write(ResultTable.Build(results));
            console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Ran in {TimeProvider.System.GetElapsedTime(started).TotalSeconds:0.0} s."));
            console.WriteLine("Report: " + files.Html);
            return PartialRun.Finish(errors, partial);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot write the report.", ex.Message, ExitCodes.ReportFailed);
        }
    }
}
