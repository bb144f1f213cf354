// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Globalization;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>The command line: options, and what runs them.</summary>
internal static class StorageTopologyCommand
{
    public const string Simulated = "simulated";
    public const string Live = "live";

    /// <summary>Creates the command; progress and results go to <paramref name="console"/>, failures to <paramref name="errors"/>.</summary>
    public static RootCommand Create(IAnsiConsole console, IAnsiConsole errors)
    {
        var scenario = new Option<string?>("--scenario", "-s")
        {
            Description = "A scenario file, or the name of an embedded scenario (see --list). Default: the embedded " + ScenarioLoader.DefaultScenarioName + " scenario (dissertation section 5.3.1).",
        };
        var list = new Option<bool>("--list") { Description = "List the embedded scenarios and exit." };
        var output = new Option<string>("--output", "-o") { Description = "The folder for the report.", DefaultValueFactory = _ => "results" };
        var seed = new Option<int?>("--seed") { Description = "Override the scenario's seed." };
        var duration = new Option<double?>("--duration") { Description = "Override how long the workloads run, in seconds." };
        var runner = new Option<string>("--runner")
        {
            Description = "simulated (deterministic discrete-event simulation) or live (real gRPC servers on loopback).",
            DefaultValueFactory = _ => Simulated,
        };
        runner.AcceptOnlyFromAmong(Simulated, Live);

        var root = new RootCommand(
            "Cicero storage topology: runs a scenario (by default the dissertation's performance-isolation experiment on "
            + "10 FE, 5 Auth, 10 PS, 10 BS) under each of its configurations and writes a report (HTML, CSV, JSON, PNG).")
        {
            scenario, list, output, seed, duration, runner,
        };
        root.SetAction(parse => parse.GetValue(list)
            ? ListScenarios(console)
            : Run(console, errors, new RunSettings(parse.GetValue(scenario), parse.GetValue(output)!, parse.GetValue(seed), parse.GetValue(duration), parse.GetValue(runner)!)));
        return root;
    }

    private static int ListScenarios(IAnsiConsole console)
    {
        var table = new Table().Border(TableBorder.Simple).AddColumn("name").AddColumn("description");
        foreach (var name in ScenarioLoader.EmbeddedScenarioNames)
        {
            var description = ScenarioLoader.LoadEmbedded(name).Description ?? string.Empty;
            var label = name == ScenarioLoader.DefaultScenarioName ? name + " (default)" : name;
            table.AddRow(Markup.Escape(label), Markup.Escape(description));
        }

        console.Write(table);
        return ExitCodes.Success;
    }

    private static int Run(IAnsiConsole console, IAnsiConsole errors, RunSettings settings)
    {
        if (settings.Runner == Live)
        {
            errors.MarkupLine("[red]The live runner is not available yet[/]: running the topology as real gRPC servers on loopback comes in a later change. Use --runner simulated (the default).");
            return ExitCodes.RunnerNotAvailable;
        }

        ScenarioSpec scenario;
        try
        {
            scenario = ScenarioSource.Load(settings.Scenario);
            scenario.Seed = settings.Seed ?? scenario.Seed;
            scenario.DurationSeconds = settings.Duration ?? scenario.DurationSeconds;

            // The overrides can make a valid scenario invalid (a duration shorter than the warm-up), so check again.
            var problems = ScenarioLoader.Validate(scenario);
            if (problems.Count > 0)
            {
                throw new ScenarioValidationException(problems, scenario.Name);
            }
        }
        catch (Exception ex) when (ex is ScenarioValidationException or FileNotFoundException or IOException or UnauthorizedAccessException)
        {
            errors.MarkupLine("[red]Cannot run the scenario.[/]");
            errors.WriteLine(ex.Message);
            return ExitCodes.InvalidScenario;
        }

        var configurations = scenario.Configurations ?? [];
        console.MarkupLine(string.Create(
            CultureInfo.InvariantCulture,
            $"Scenario [bold]{Markup.Escape(scenario.Name ?? "scenario")}[/]: {configurations.Count} configuration(s), {scenario.DurationSeconds:0.###} s of load, seed {scenario.Seed}, simulated."));

        var started = TimeProvider.System.GetTimestamp();
        List<TopologyRunResult> results;
        try
        {
            (results, _) = new SimulatedRunner(console).Run(scenario);
        }
        catch (ConservationException ex)
        {
            errors.MarkupLine("[red]A run failed its conservation check.[/]");
            errors.WriteLine(ex.Message);
            return ExitCodes.RunFailed;
        }
        catch (ArgumentException ex)
        {
            // A scenario the validator let through but the runner cannot build; say which, without a stack trace.
            errors.MarkupLine("[red]A run failed.[/]");
            errors.WriteLine(ex.Message);
            return ExitCodes.RunFailed;
        }

        var simulated = TimeProvider.System.GetElapsedTime(started);
        ReportFiles files;
        try
        {
            files = ReportWriter.Write(results, settings.Output, new ReportOptions { Scenario = scenario });
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            errors.MarkupLine("[red]Cannot write the report.[/]");
            errors.WriteLine(ex.Message);
            return ExitCodes.ReportFailed;
        }

        var total = TimeProvider.System.GetElapsedTime(started);

        console.Write(ResultTable.Build(results));
        console.MarkupLine(string.Create(
            CultureInfo.InvariantCulture,
            $"Simulated in {simulated.TotalSeconds:F1} s, report written in {(total - simulated).TotalSeconds:F1} s."));
        // The plain path, not a terminal hyperlink: it is what a user copies and what a CI log shows.
        console.WriteLine("Report: " + files.Html);
        console.MarkupLine($"CSV, JSON and PNG files beside it, in {Markup.Escape(files.Directory)}");
        return ExitCodes.Success;
    }
}
