// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Scenarios.Generation;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>
/// The <c>generate</c> command (a random topology as a scenario file) and the <c>check</c> command (the rate-control
/// guarantee over a range of generated topologies, docs/reliability.md).
/// </summary>
internal static class GenerateCommands
{
    public static Command CreateGenerate(IAnsiConsole console, IAnsiConsole errors)
    {
        var seed = new Option<int>("--seed") { Description = "The seed; the same seed gives the same scenario.", Required = true };
        var kind = Kind();
        var output = new Option<string?>("--output", "-o") { Description = "The scenario file to write. Default: generated-<seed>.json." };
        var command = new Command(
            "generate",
            "Writes a random service graph as a scenario file (depth 2-8, fan-out 1-16, 1-20 instances per service, 1-4 tenants, 30-95% of the bottleneck's capacity, optionally an aggressor or a bursting tenant) with configurations baseline, rc, drr and rc+drr; run it with --scenario.")
        {
            seed, kind, output,
        };
        command.SetAction(parse =>
        {
            var value = parse.GetValue(seed);
            if (value is < 0 or > ScenarioGenerator.MaxSeed)
            {
                return CommandErrors.Report(errors, "Invalid options.", SeedRange("--seed", value), ExitCodes.InvalidCommandLine);
            }

            var path = parse.GetValue(output) ?? string.Create(CultureInfo.InvariantCulture, $"generated-{value}.json");
            var generated = ScenarioGenerator.Generate(value, parse.GetValue(kind));
            try
            {
                File.WriteAllText(path, ScenarioLoader.ToJson(generated.Scenario));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                return CommandErrors.Report(errors, "Cannot write the scenario.", ex.Message, ExitCodes.ReportFailed);
            }

            console.WriteLine(generated.Scenario.Description ?? string.Empty);
            console.WriteLine("Scenario: " + Path.GetFullPath(path));
            console.WriteLine("Run it:   dotnet run -c Release --project samples/StorageTopology -- --scenario " + path);
            return ExitCodes.Success;
        });
        return command;
    }

    public static Command CreateCheck(IAnsiConsole console, IAnsiConsole errors)
    {
        var from = new Option<int>("--from") { Description = "The first seed.", DefaultValueFactory = _ => 1 };
        var count = new Option<int>("--count") { Description = "How many seeds, from --from on.", DefaultValueFactory = _ => 100 };
        var kind = Kind();
        var failures = new Option<string?>("--failures") { Description = "A folder to write each failing seed's scenario to (regression scenarios)." };
        var parallel = new Option<int?>("--parallel") { Description = "How many seeds to check at once. Default: every core. The results are the same for any value." };
        var json = new Option<string?>("--json") { Description = "A file to write each seed's verdict to (the clauses, their margins and what the worst came from)." };
        var rateControl = new Option<string?>("--rate-control")
        {
            Description = "Run rc and rc+drr with these bottleneck-fairness options: one JSON object, bound as a scenario's rateControl object (docs/emulator.md), e.g. '{\"overloadHold\": {\"utilization\": 0.7}, \"demandSmoothingTime\": \"00:00:04\"}'. Default: the preset's options.",
        };
        var command = new Command(
            "check",
            "Checks the rate-control guarantee (docs/reliability.md §8) on generated topologies, 5 paired run seeds each: healthy ones against the same scheduler without rate control, aggressor ones against static limits; prints each seed, the slowest and worst, and as its last line the pass counts per clause. Exit code 4 if any seed fails.")
        {
            from, count, kind, failures, parallel, json, rateControl,
        };
        command.SetAction(parse =>
        {
            if (parse.GetValue(count) < 1)
            {
                return CommandErrors.Report(errors, "Invalid options.", "--count must be at least 1.", ExitCodes.InvalidCommandLine);
            }

            if (parse.GetValue(from) is < 0 or > ScenarioGenerator.MaxSeed)
            {
                return CommandErrors.Report(errors, "Invalid options.", SeedRange("--from", parse.GetValue(from)), ExitCodes.InvalidCommandLine);
            }

            if ((long)parse.GetValue(from) + parse.GetValue(count) - 1 > ScenarioGenerator.MaxSeed)
            {
                return CommandErrors.Report(errors, "Invalid options.", string.Create(CultureInfo.InvariantCulture, $"--from {parse.GetValue(from)} --count {parse.GetValue(count)} runs past the last seed, {ScenarioGenerator.MaxSeed}."), ExitCodes.InvalidCommandLine);
            }

            if (parse.GetValue(parallel) is < 1)
            {
                return CommandErrors.Report(errors, "Invalid options.", string.Create(CultureInfo.InvariantCulture, $"--parallel must be at least 1, got {parse.GetValue(parallel)}."), ExitCodes.InvalidCommandLine);
            }

            if (RateControlTuning.TryParse(parse.GetValue(rateControl), out var tuning) is { } problem)
            {
                return CommandErrors.Report(errors, "Invalid options.", problem, ExitCodes.InvalidCommandLine);
            }

            var sweep = new CheckSweep(parse.GetValue(from), parse.GetValue(count), parse.GetValue(kind), parse.GetValue(parallel) ?? Environment.ProcessorCount, tuning);
            return CheckCommand.Run(console, errors, sweep, parse.GetValue(failures), parse.GetValue(json));
        });
        return command;
    }

    private static string SeedRange(string option, int value) =>
        string.Create(CultureInfo.InvariantCulture, $"{option} must be a seed from 0 to {ScenarioGenerator.MaxSeed}, got {value} (a negative seed, or {int.MaxValue}, would repeat the scenario of another).");

    private static Option<string?> Kind()
    {
        var kind = new Option<string?>("--kind") { Description = "The load: " + string.Join(", ", GeneratedLoadKinds.All) + ". Default: chosen by the seed." };
        kind.AcceptOnlyFromAmong([.. GeneratedLoadKinds.All]);
        return kind;
    }
}
