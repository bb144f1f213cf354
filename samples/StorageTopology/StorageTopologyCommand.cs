// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Globalization;
using Cicero.Emulator.Live;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Policies.Registration;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>The command line: options, and what runs them.</summary>
internal static class StorageTopologyCommand
{
    public const string Simulated = "simulated";
    public const string Live = "live";

    /// <summary>Parses and runs a command line; no exception reaches the caller (an unexpected one is reported with <see cref="ExitCodes.InternalError"/>).</summary>
    public static int Invoke(string[] args, IAnsiConsole console, IAnsiConsole errors)
    {
        try
        {
            return Create(console, errors).Parse(args).Invoke(new InvocationConfiguration
            {
                // Ctrl-C and SIGTERM are the runs' own business (StopSignal): they stop and write a partial report.
                ProcessTerminationTimeout = null,
                EnableDefaultExceptionHandler = false,
                Output = console.Profile.Out.Writer,
                Error = errors.Profile.Out.Writer,
            });
        }
        catch (Exception ex)
        {
            return CommandErrors.Report(
                errors,
                "Unexpected failure: this is a bug in the emulator; please report it with the command line.",
                $"{ex.GetType().Name}: {ex.Message}",
                ExitCodes.InternalError);
        }
    }

    /// <summary>Creates the command; progress and results go to <paramref name="console"/>, failures to <paramref name="errors"/>.</summary>
    public static RootCommand Create(IAnsiConsole console, IAnsiConsole errors)
    {
        var list = new Option<bool>("--list") { Description = "List the embedded scenarios and exit." };
        var options = new RunOptions();
        var root = new RootCommand(
            "Cicero storage topology: runs a scenario (by default the dissertation's performance-isolation experiment on "
            + "10 FE, 5 Auth, 10 PS, 10 BS) under each of its configurations and writes a report (HTML, CSV, JSON, PNG).")
        {
            list,
        };
        options.AddTo(root);
        root.SetAction(parse => parse.GetValue(list) ? ListScenarios(console) : Run(console, errors, options.Bind(parse)));
        root.Subcommands.Add(TraceCommands.CreateImport(console, errors));
        root.Subcommands.Add(TraceCommands.CreateDeadline(console, errors));
        root.Subcommands.Add(ReplayCommand.Create(console, errors));
        root.Subcommands.Add(GenerateCommands.CreateGenerate(console, errors));
        root.Subcommands.Add(GenerateCommands.CreateCheck(console, errors));
        root.Subcommands.Add(HarnessCommand.Create(settings => Run(console, errors, settings)));
        return root;
    }

    private static int Host(IAnsiConsole console, IAnsiConsole errors, ScenarioSpec scenario, LiveRunnerOptions options, PolicyCatalog catalog)
    {
        using var stop = new CancellationTokenSource();

        // Ctrl+C and SIGTERM (what Kubernetes sends) both stop the instances cleanly.
        void Stop(System.Runtime.InteropServices.PosixSignalContext context)
        {
            context.Cancel = true;
            stop.Cancel();
        }

        using var interrupt = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGINT, Stop);
        using var terminate = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGTERM, Stop);
        try
        {
            new LiveRunner(console, options, catalog).HostAsync(scenario, stop.Token).GetAwaiter().GetResult();
            return ExitCodes.Success;
        }
        catch (ScenarioValidationException ex)
        {
            return CommandErrors.Report(errors, "Cannot host the scenario's instances.", ex.Message, ExitCodes.InvalidScenario);
        }
    }

    private static int ListScenarios(IAnsiConsole console)
    {
        var table = new Table().Border(TableBorder.Simple).AddColumn("name").AddColumn("description");
        foreach (var name in ScenarioLoader.EmbeddedScenarioNames)
        {
            var description = ScenarioLoader.LoadEmbedded(name).Description ?? string.Empty;
            var label = name == ScenarioLoader.DefaultScenarioName ? name + " (default)" : name;
            if (ConsoleFactory.IsInteractive(console))
            {
                table.AddRow(Markup.Escape(label), Markup.Escape(description));
            }
            else
            {
                // Piped: one line per scenario, easy to grep, rather than a table as wide as the longest description.
                console.Profile.Out.Writer.WriteLine($"{label}: {description}");
            }
        }

        if (ConsoleFactory.IsInteractive(console))
        {
            console.Write(table);
        }

        return ExitCodes.Success;
    }

    private static int Run(IAnsiConsole console, IAnsiConsole errors, RunSettings settings)
    {
        ScenarioSpec scenario;
        PolicyCatalog catalog;
        try
        {
            catalog = PolicyAssemblies.Load(settings.PolicyAssemblies ?? []);
        }
        catch (ArgumentException ex)
        {
            return CommandErrors.Report(errors, "Invalid options.", ex.Message, ExitCodes.InvalidCommandLine);
        }

        if (settings.Host is null && OutputPaths.CheckFolder(settings.Output) is { } unwritable)
        {
            return CommandErrors.Report(errors, "Cannot write the report.", unwritable, ExitCodes.ReportFailed);
        }

        try
        {
            scenario = ScenarioSource.Load(settings.Scenario, catalog);
            scenario.Seed = settings.Seed ?? scenario.Seed;
            scenario.DurationSeconds = settings.Duration ?? scenario.DurationSeconds;

            // The overrides can make a valid scenario invalid (a duration shorter than the warm-up), so check again.
            var problems = ScenarioLoader.Validate(scenario, catalog);
            if (problems.Count > 0)
            {
                throw new ScenarioValidationException(problems, scenario.Name);
            }

            if (RunLimits.Check(scenario) is { } tooBig)
            {
                return CommandErrors.Report(errors, "Cannot run the scenario.", tooBig, ExitCodes.InvalidScenario);
            }
        }
        catch (Exception ex) when (ex is ScenarioValidationException or FileNotFoundException or IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot run the scenario.", ex.Message, ExitCodes.InvalidScenario);
        }

        LiveRunnerOptions? liveOptions = null;
        if (settings.Runner == Live)
        {
            try
            {
                liveOptions = LiveRunner.LoadOptions(settings.Addresses, settings.Host, settings.Listen);
                if (settings.Harness is { } harness)
                {
                    liveOptions.MonitorPath = harness.Monitor;
                    liveOptions.RateExchangePortOffset = harness.RateExchangePortOffset;
                    liveOptions.ListenPortOffset = harness.ListenPortOffset;
                    liveOptions.SlowFactorOnSignal = harness.SlowFactor;
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or System.Text.Json.JsonException)
            {
                return CommandErrors.Report(errors, "Cannot read the addresses.", ex.Message, ExitCodes.InvalidAddresses);
            }

            var liveProblems = LiveTopologyRunner.Validate(scenario, catalog, liveOptions);
            if (liveProblems.Count > 0)
            {
                return CommandErrors.Report(errors, "Cannot run the scenario live.", new ScenarioValidationException(liveProblems, scenario.Name).Message, ExitCodes.InvalidScenario);
            }

            if (settings.Host is not null)
            {
                return Host(console, errors, scenario, liveOptions, catalog);
            }
        }

        var configurations = scenario.Configurations ?? [];
        console.MarkupLine(string.Create(
            CultureInfo.InvariantCulture,
            $"Scenario [bold]{Markup.Escape(scenario.Name ?? "scenario")}[/]: {configurations.Count} configuration(s), {scenario.DurationSeconds:0.###} s of load, seed {scenario.Seed}, {settings.Runner}."));

        var started = TimeProvider.System.GetTimestamp();
        List<TopologyRunResult> results;
        using var stop = new StopSignal();

        // Live servers and clients share this machine: when it saturates, the report must not name a winner.
        using var host = liveOptions is null ? null : HostMonitor.Start();
        try
        {
            results = liveOptions is null ? new SimulatedRunner(console, catalog).Run(scenario, stop.Token).Results : new LiveRunner(console, liveOptions, catalog).Run(scenario, stop.Token);
        }
        catch (ScenarioValidationException ex)
        {
            return CommandErrors.Report(errors, "Cannot run the scenario.", ex.Message, ExitCodes.InvalidScenario);
        }
        catch (ConservationException ex)
        {
            return CommandErrors.Report(errors, "A run failed its conservation check.", ex.Message, ExitCodes.RunFailed);
        }
        catch (ArgumentException ex)
        {
            // A scenario the validator let through but the runner cannot build; say which, without a stack trace.
            return CommandErrors.Report(errors, "A run failed.", ex.Message, ExitCodes.RunFailed);
        }

        var simulated = TimeProvider.System.GetElapsedTime(started);
        var partial = PartialRun.Describe(stop, configurations.Select(static c => c.Name ?? "configuration"), results);
        if (results.Count == 0)
        {
            return CommandErrors.Report(errors, "Stopped before any run started.", partial ?? "No report was written.", ExitCodes.Interrupted);
        }

        ReportFiles files;
        try
        {
            if (OutputPaths.CheckFolder(settings.Output) is { } replaced)
            {
                return CommandErrors.Report(errors, "Cannot write the report.", replaced, ExitCodes.ReportFailed);
            }

            files = ReportWriter.Write(results, settings.Output, new ReportOptions { Scenario = scenario, Runner = settings.Runner, Partial = partial, HostBottleneck = host?.Finish().HostLimited }, PartialRun.ForReport(stop));
            partial = PartialRun.AfterReport(stop, partial, files);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot write the report.", ex.Message, ExitCodes.ReportFailed);
        }

        var total = TimeProvider.System.GetElapsedTime(started);

        console.Write(ResultTable.Build(results));
        foreach (var sentence in host?.Finish().Sentences() ?? [])
        {
            console.Profile.Out.Writer.WriteLine(sentence);
        }

        console.MarkupLine(string.Create(
            CultureInfo.InvariantCulture,
            $"Ran in {simulated.TotalSeconds:F1} s, report written in {(total - simulated).TotalSeconds:F1} s."));
        // The plain path, not a terminal hyperlink: it is what a user copies and what a CI log shows.
        console.WriteLine("Report: " + files.Html);
        console.MarkupLine($"CSV, JSON and PNG files beside it, in {Markup.Escape(files.Directory)}");
        return PartialRun.Finish(errors, partial);
    }
}
