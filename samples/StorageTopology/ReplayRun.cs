// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Live;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Replay;
using Cicero.Policies.Registration;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>One <c>replay</c> invocation: checks everything it can before the first run, runs, judges, reports.</summary>
internal sealed class ReplayRun(IAnsiConsole console, IAnsiConsole errors, ReplaySettings settings)
{
    /// <summary>Runs the command; returns the exit code.</summary>
    public int Execute()
    {
        if (!TraceSource.TryCreate(settings.Trace, settings.Format, settings.Input, out var source, out _, out var problem))
        {
            return CommandErrors.Report(errors, "Invalid options.", problem!, ExitCodes.InvalidCommandLine);
        }

        if (settings.Clients is not null && settings.SpeedUp is not null)
        {
            return CommandErrors.Report(errors, "Invalid options.", "--speed-up applies to open loop and --clients to closed loop: give one of them.", ExitCodes.InvalidCommandLine);
        }

        if (settings.Clients > ScenarioLimits.MaxClients)
        {
            return CommandErrors.Report(errors, "Invalid options.", $"--clients: at most {ScenarioLimits.MaxClients:N0}, was {settings.Clients:N0}.", ExitCodes.InvalidCommandLine);
        }

        if (OutputPaths.CheckFolder(settings.Output) is { } unwritable)
        {
            return CommandErrors.Report(errors, "Cannot write the report.", unwritable, ExitCodes.ReportFailed);
        }

        PolicyCatalog catalog;
        ScenarioSpec? topology;
        List<ConfigurationSpec> configurations;
        try
        {
            catalog = PolicyAssemblies.Load(settings.PolicyAssemblies);
            topology = settings.Scenario is null ? null : ScenarioSource.Load(settings.Scenario, catalog);
            configurations = ConfigurationNames.Resolve(settings.Configurations, topology?.Configurations?.ToList() ?? [], catalog);
        }
        catch (ArgumentException ex)
        {
            return CommandErrors.Report(errors, "Invalid options.", ex.Message, ExitCodes.InvalidCommandLine);
        }
        catch (Exception ex) when (ex is ScenarioValidationException or FileNotFoundException or IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot read the scenario.", ex.Message, ExitCodes.InvalidScenario);
        }

        TraceReplayPlan plan;
        try
        {
            plan = ReplayTopology.Apply(TraceReplayPlanner.Create(source!()), topology, settings.Capacity);
            var problems = ScenarioLoader.Validate(Checked(plan.Scenario, configurations), catalog);
            if (problems.Count > 0)
            {
                throw new ScenarioValidationException(problems, plan.Scenario.Name);
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
            return CommandErrors.Report(errors, "Cannot replay the trace on this topology.", ex.Message, ExitCodes.InvalidScenario);
        }

        var speedUp = settings.SpeedUp ?? 1;
        if (settings.Clients is null && plan.DurationSeconds / speedUp > ScenarioLimits.MaxDurationSeconds)
        {
            return CommandErrors.Report(
                errors,
                "Invalid options.",
                string.Create(CultureInfo.InvariantCulture, $"--speed-up {speedUp:G4}: the trace's {plan.DurationSeconds:0.###} s of arrivals would span {plan.DurationSeconds / speedUp:G3} s, more than the limit of one week ({ScenarioLimits.MaxDurationSeconds:N0} s)."),
                ExitCodes.InvalidCommandLine);
        }

        return new ReplayExecution(console, errors, settings, plan, configurations, catalog).Run();
    }

    /// <summary>The plan's scenario with the configurations, so the validator checks their policy names and limits before any run.</summary>
    private static ScenarioSpec Checked(ScenarioSpec scenario, List<ConfigurationSpec> configurations) => new()
    {
        Name = scenario.Name,
        Seed = scenario.Seed,
        DurationSeconds = scenario.DurationSeconds,
        WarmUpSeconds = scenario.WarmUpSeconds,
        EntryService = scenario.EntryService,
        Network = scenario.Network,
        Services = scenario.Services,
        Routes = scenario.Routes,
        Workflows = scenario.Workflows,
        Workloads = [.. (scenario.Workflows ?? []).Select(static w => new WorkloadSpec { Workflow = w.Name, Kind = WorkloadKinds.Poisson, RatePerSecond = 1 })],
        Configurations = configurations,
    };
}
