// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.ReplicaSelection;
using Cicero.Policies.ReplicaSelection;

namespace Cicero.C3Simulation;

/// <summary>The command line: options, their checks, and the runs.</summary>
internal static class C3SimulationCommand
{
    /// <summary>The exit code of an argument error.</summary>
    public const int InvalidArguments = 2;

    /// <summary>Parses and runs; a parse error is one line on <paramref name="errors"/> (no help text, no stack trace).</summary>
    public static int Run(string[] args, TextWriter output, TextWriter errors)
    {
        var parse = Create(output, errors).Parse(args);
        if (parse.Errors.Count > 0)
        {
            errors.WriteLine("error: " + OneLine(parse.Errors[0].Message));
            return InvalidArguments;
        }

        return parse.Invoke();
    }

    /// <summary>Creates the command; tables go to <paramref name="output"/>, argument errors to <paramref name="errors"/> as one line.</summary>
    public static RootCommand Create(TextWriter output, TextWriter errors)
    {
        var requests = new Option<int>("--requests") { Description = "Requests generated per run.", DefaultValueFactory = _ => 600_000 };
        var servers = new Option<int>("--servers") { Description = "Servers.", DefaultValueFactory = _ => 50 };
        var clients = new Option<int>("--clients") { Description = "Clients (C3's n).", DefaultValueFactory = _ => 150 };
        var generators = new Option<int>("--generators") { Description = "Poisson workload generators.", DefaultValueFactory = _ => 200 };
        var seeds = new Option<int>("--seeds") { Description = "Seeds per configuration (1, 2, ...); the table shows their mean.", DefaultValueFactory = _ => 3 };
        var range = new Option<double>("--d") { Description = "The range parameter D: a fast server is D times faster (1: steady servers).", DefaultValueFactory = _ => 3 };
        var utilization = new Option<double>("--utilization") { Description = "Offered load as a fraction of the average capacity (the paper: 0.7 or 0.45).", DefaultValueFactory = _ => 0.7 };
        var intervals = new Option<double[]>("--interval-ms")
        {
            Description = "Fluctuation intervals T in ms.",
            DefaultValueFactory = _ => [500, 10],
            AllowMultipleArgumentsPerToken = true,
        };
        var selectors = new Option<string[]>("--selectors")
        {
            Description = "Selectors: " + string.Join(", ", SimulationSelectorNames.All) + ".",
            DefaultValueFactory = _ => [.. SimulationSelectorNames.Reference],
            AllowMultipleArgumentsPerToken = true,
        };
        var scoreClients = new Option<double?>("--score-n") { Description = "C3's n in the concurrency compensation; default: --clients (the paper)." };
        var exponent = new Option<double>("--b") { Description = "C3's queue exponent b (score penalty q^b).", DefaultValueFactory = _ => 3 };
        var variant = new Option<string>("--rate-variant")
        {
            Description = "Rate control: 'published' (Algorithm 2 as written), 'binding-limit', or 'delay-guarded' (Cicero's production default).",
            DefaultValueFactory = _ => "published",
        };
        variant.AcceptOnlyFromAmong("published", "binding-limit", "delay-guarded");
        var increase = new Option<string>("--rate-increase") { Description = "Rate increase rule: cubic, aimd or bic.", DefaultValueFactory = _ => "cubic" };
        increase.AcceptOnlyFromAmong("cubic", "aimd", "bic");
        var highDemand = new Option<double>("--high-demand-fraction") { Description = "Fraction of clients that generate --demand-skew of the requests (the paper: 0.2 or 0.5); 0 for none." };
        var skew = new Option<double>("--demand-skew") { Description = "Share of requests the high-demand clients generate.", DefaultValueFactory = _ => 0.8 };
        var surgeAt = new Option<double?>("--surge-at-s") { Description = "Start a demand surge at this time, in seconds (dissertation Fig. 4.20: 10)." };
        var surgeClients = new Option<int>("--surge-clients") { Description = "Clients that receive the surge.", DefaultValueFactory = _ => 3 };
        var surgeUtilization = new Option<double>("--surge-utilization") { Description = "Offered load during the surge.", DefaultValueFactory = _ => 0.6 };
        var oracleInService = new Option<bool>("--oracle-counts-in-service")
        {
            Description = "Tell the oracle waiting + in-service requests instead of the waiting queue only.",
        };
        var root = new RootCommand("Cicero C3 simulation: the C3 paper's §6 set-up on a virtual clock, per selector and fluctuation interval.")
        {
            requests, servers, clients, generators, seeds, range, utilization, intervals, selectors, scoreClients, exponent, variant, increase, highDemand, skew,
            surgeAt, surgeClients, surgeUtilization, oracleInService,
        };
        root.SetAction(parse =>
        {
            ReplicaSimulationOptions Options(double interval) => new()
            {
                Requests = parse.GetValue(requests),
                Servers = parse.GetValue(servers),
                Clients = parse.GetValue(clients),
                Generators = parse.GetValue(generators),
                Utilization = parse.GetValue(utilization),
                RangeFactor = parse.GetValue(range),
                FluctuationInterval = TimeSpan.FromMilliseconds(interval),
                ScoreExponent = parse.GetValue(exponent),
                ScoreClientCount = parse.GetValue(scoreClients),
                RateVariant = CubicRateVariants.Parse(parse.GetValue(variant)) ?? CubicRateVariant.Published,
                RateIncrease = parse.GetValue(increase) switch { "aimd" => RateIncreaseRule.Additive, "bic" => RateIncreaseRule.BinarySearch, _ => RateIncreaseRule.Cubic },
                HighDemandFraction = parse.GetValue(highDemand),
                DemandSkew = parse.GetValue(skew),
                SurgeAt = parse.GetValue(surgeAt) is { } at ? TimeSpan.FromSeconds(at) : null,
                SurgeClients = parse.GetValue(surgeClients),
                SurgeUtilization = parse.GetValue(surgeUtilization),
                OracleCountsInService = parse.GetValue(oracleInService),
            };

            var seedCount = parse.GetValue(seeds);
            var intervalValues = parse.GetValue(intervals)!;
            var selectorNames = parse.GetValue(selectors)!;
            if (Problem(seedCount, intervalValues, selectorNames, Options) is { } problem)
            {
                errors.WriteLine("error: " + problem);
                return InvalidArguments;
            }

            var table = new C3SimulationTable(output);
            foreach (var interval in intervalValues)
            {
                foreach (var selector in selectorNames)
                {
                    var runs = new ReplicaSimulationResult[seedCount];
                    Parallel.For(0, runs.Length, i => runs[i] = new ReplicaSimulation(Options(interval), selector, i + 1).Run());
                    table.Add(interval, selector, runs);
                }
            }

            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"All runs conserved requests: {table.AllConserved}."));
            return table.AllConserved ? 0 : 1;
        });

        return root;
    }

    /// <summary>Checks every option before any run starts, so a bad value is one line rather than an exception in a worker.</summary>
    private static string? Problem(int seeds, double[] intervals, string[] selectors, Func<double, ReplicaSimulationOptions> options)
    {
        if (seeds < 1)
        {
            return $"--seeds must be at least 1 (was {seeds}).";
        }

        if (intervals.Length == 0 || selectors.Length == 0)
        {
            return "give at least one --interval-ms and one --selectors value.";
        }

        foreach (var selector in selectors)
        {
            if (!SimulationSelectorNames.All.Contains(selector))
            {
                return $"--selectors: unknown selector '{selector}'; known: {string.Join(", ", SimulationSelectorNames.All)}.";
            }
        }

        foreach (var interval in intervals)
        {
            if (!(interval > 0) || !double.IsFinite(interval))
            {
                return string.Create(CultureInfo.InvariantCulture, $"--interval-ms must be positive (was {interval}).");
            }

            try
            {
                options(interval).Validate();
            }
            catch (ArgumentOutOfRangeException ex)
            {
                return OptionName(ex.ParamName) + ": " + OneLine(ex.Message);
            }
        }

        return null;
    }

    private static string OptionName(string? property) => property switch
    {
        nameof(ReplicaSimulationOptions.Requests) => "--requests",
        nameof(ReplicaSimulationOptions.Servers) => "--servers",
        nameof(ReplicaSimulationOptions.Clients) => "--clients",
        nameof(ReplicaSimulationOptions.Generators) => "--generators",
        nameof(ReplicaSimulationOptions.Utilization) => "--utilization",
        nameof(ReplicaSimulationOptions.RangeFactor) => "--d",
        nameof(ReplicaSimulationOptions.ScoreExponent) => "--b",
        nameof(ReplicaSimulationOptions.HighDemandFraction) => "--high-demand-fraction / --demand-skew",
        nameof(ReplicaSimulationOptions.SurgeAt) => "--surge-at-s / --surge-clients / --surge-utilization",
        _ => property ?? "options",
    };

    // ArgumentOutOfRangeException appends " (Parameter 'x')" and "Actual value was y." on further lines; the parser lists
    // allowed values one per line.
    private static string OneLine(string message)
    {
        var cut = message.IndexOf(" (Parameter '", StringComparison.Ordinal);
        var text = cut >= 0 ? message[..cut] : message;
        return string.Join(' ', text.Split(['\r', '\n', '\t'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
    }
}
