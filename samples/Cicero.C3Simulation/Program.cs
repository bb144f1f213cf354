// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Globalization;
using Cicero.C3Simulation;
using Cicero.Emulator.Simulation.ReplicaSelection;

var requests = new Option<int>("--requests") { Description = "Requests generated per run.", DefaultValueFactory = _ => 600_000 };
var servers = new Option<int>("--servers") { Description = "Servers.", DefaultValueFactory = _ => 50 };
var clients = new Option<int>("--clients") { Description = "Clients (C3's n).", DefaultValueFactory = _ => 150 };
var generators = new Option<int>("--generators") { Description = "Poisson workload generators.", DefaultValueFactory = _ => 200 };
var seeds = new Option<int>("--seeds") { Description = "Seeds per configuration (1, 2, ...); the table shows their mean.", DefaultValueFactory = _ => 3 };
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
var oracleInService = new Option<bool>("--oracle-counts-in-service")
{
    Description = "Tell the oracle waiting + in-service requests instead of the waiting queue only.",
};
var root = new RootCommand("Cicero C3 simulation: the C3 paper's §6 set-up on a virtual clock, per selector and fluctuation interval.")
{
    requests, servers, clients, generators, seeds, intervals, selectors, oracleInService,
};
root.SetAction(parse =>
{
    var table = new C3SimulationTable(Console.Out);
    foreach (var interval in parse.GetValue(intervals)!)
    {
        foreach (var selector in parse.GetValue(selectors)!)
        {
            var runs = new ReplicaSimulationResult[parse.GetValue(seeds)];
            Parallel.For(0, runs.Length, i =>
            {
                var options = new ReplicaSimulationOptions
                {
                    Requests = parse.GetValue(requests),
                    Servers = parse.GetValue(servers),
                    Clients = parse.GetValue(clients),
                    Generators = parse.GetValue(generators),
                    FluctuationInterval = TimeSpan.FromMilliseconds(interval),
                    OracleCountsInService = parse.GetValue(oracleInService),
                };
                runs[i] = new ReplicaSimulation(options, selector, i + 1).Run();
            });
            table.Add(interval, selector, runs);
        }
    }

    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"All runs conserved requests: {table.AllConserved}."));
    return table.AllConserved ? 0 : 1;
});

return root.Parse(args).Invoke();
