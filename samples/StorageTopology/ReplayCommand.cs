// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Traces.Importers;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>
/// The <c>replay</c> command: a trace replayed against N configurations on a chosen topology and capacity, over several
/// seeds (or repeated live runs), with a verdict that names a winner only beyond the spread over runs.
/// </summary>
internal static class ReplayCommand
{
    public static Command Create(IAnsiConsole console, IAnsiConsole errors)
    {
        var trace = new Option<string?>("--trace", "-t") { Description = "A Cicero trace (e.g. written by 'import')." };
        var format = new Option<string?>("--format", "-f") { Description = "Import on the fly instead: the public trace's format (" + string.Join(", ", TraceImport.Formats) + ")." };
        var input = new Option<string?>("--input", "-i") { Description = "Import on the fly instead: the public trace file." };
        var scenario = new Option<string?>("--scenario", "-s")
        {
            Description = "A scenario file or embedded scenario name whose topology (services, resources, network) the trace runs on and whose configurations --configurations may name. Default: the default topology.",
        };
        var configurations = new Option<string>("--configurations", "-c")
        {
            Description = "Comma-separated configurations: baseline, rc, or policies joined by + (rc+drr, edf+rc, lstf+rc, a custom scheduler or rate-limit policy), or a configuration of --scenario.",
            DefaultValueFactory = _ => ConfigurationNames.Default,
        };
        var capacity = OptionValues.Positive("--capacity", "Scales every resource's permits (disks, compute, cpu, pools) by this factor, rounded up, at least 1: 0.05 leaves a block server 4 disk slots of 64.", 1);
        var seeds = OptionValues.Int("--seeds", "Runs per configuration (seeds seed, seed+1, ...; live: repeated runs); the verdict needs a difference beyond their spread.", 3, minimum: 1);
        var policyAssembly = new Option<string[]>("--policy-assembly")
        {
            Description = "An assembly (.dll) whose public IPolicyCatalogRegistration classes register custom policies by name (repeatable).",
            AllowMultipleArgumentsPerToken = false,
        };
        var speedUp = OptionValues.OptionalPositive("--speed-up", "Open loop: arrivals this many times faster than recorded (default 1; not with --clients).");
        var clients = OptionValues.OptionalInt("--clients", $"Closed loop with this many clients (at most {ScenarioLimits.MaxClients:N0}), each sending the next request in trace order when its previous one ends.", minimum: 1);
        var runner = new Option<string>("--runner") { Description = "simulated or live.", DefaultValueFactory = _ => StorageTopologyCommand.Simulated };
        runner.AcceptOnlyFromAmong(StorageTopologyCommand.Simulated, StorageTopologyCommand.Live);
        var seed = OptionValues.OptionalInt("--seed", "The first run's seed (default: the scenario's).");
        var output = new Option<string>("--output", "-o") { Description = "The report's folder.", DefaultValueFactory = _ => Path.Combine("results", "replay") };
        var command = new Command(
            "replay",
            "Replays a trace against several configurations (default " + ConfigurationNames.Default + ") on the default topology or a scenario's, several seeds each, open loop at the recorded times (sped up) or closed loop (--clients); "
            + "writes the usual report and ends with 'winner: NAME' or 'winner: none (tie within noise)'.")
        {
            trace, format, input, scenario, configurations, capacity, seeds, seed, policyAssembly, speedUp, clients, runner, output,
        };
        command.SetAction(parse => new ReplayRun(console, errors, new ReplaySettings(
            parse.GetValue(trace),
            parse.GetValue(format),
            parse.GetValue(input),
            parse.GetValue(scenario),
            parse.GetValue(configurations)!,
            parse.GetValue(capacity),
            parse.GetValue(seeds),
            parse.GetValue(seed),
            parse.GetValue(policyAssembly) ?? [],
            parse.GetValue(speedUp),
            parse.GetValue(clients),
            parse.GetValue(runner)!,
            parse.GetValue(output)!)).Execute());
        return command;
    }
}
