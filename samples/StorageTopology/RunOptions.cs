// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using Cicero.Emulator.Live;
using Cicero.Emulator.Scenarios;

namespace Cicero.StorageTopology;

/// <summary>
/// The options of a scenario run, made afresh for each command that runs scenarios (the user's root command and the
/// hidden <see cref="HarnessCommand"/>), so both parse the same names to the same <see cref="RunSettings"/>.
/// </summary>
internal sealed class RunOptions
{
    private readonly Option<string?> _scenario = new("--scenario", "-s")
    {
        Description = "A scenario file, or the name of an embedded scenario (see --list). Default: the embedded " + ScenarioLoader.DefaultScenarioName + " scenario (dissertation section 5.3.1).",
    };

    private readonly Option<string> _output = new("--output", "-o") { Description = "The folder for the report.", DefaultValueFactory = _ => "results" };
    private readonly Option<int?> _seed = OptionValues.OptionalInt("--seed", "Override the scenario's seed.");
    private readonly Option<double?> _duration = OptionValues.OptionalPositive("--duration", "Override how long the workloads run, in seconds.");
    private readonly Option<string> _runner = new("--runner")
    {
        Description = "simulated (deterministic discrete-event simulation) or live (real gRPC servers on loopback).",
        DefaultValueFactory = _ => StorageTopologyCommand.Simulated,
    };

    private readonly Option<string?> _addresses = new("--addresses")
    {
        Description = "Live runner: a JSON file mapping service names to their instances' addresses, for runs that span processes or machines (docs/deployment.md).",
    };

    private readonly Option<string?> _host = new("--host")
    {
        Description = "Live runner: host only these instances (e.g. bs-0,bs-1) at their addresses and serve until Ctrl+C, offering no load.",
    };

    private readonly Option<string> _listen = new("--listen")
    {
        Description = "Live runner: the interface hosted instances with an address listen on (0.0.0.0 for every interface, to serve other machines).",
        DefaultValueFactory = _ => LiveRunnerOptions.LoopbackHost,
    };

    private readonly Option<string[]> _policyAssembly = new("--policy-assembly")
    {
        Description = "An assembly (.dll) whose public IPolicyCatalogRegistration classes register custom policies the scenario's configurations may name (repeatable).",
    };

    public RunOptions() => _runner.AcceptOnlyFromAmong(StorageTopologyCommand.Simulated, StorageTopologyCommand.Live);

    /// <summary>Adds every run option to <paramref name="command"/>.</summary>
    public void AddTo(Command command)
    {
        foreach (var option in new Option[] { _scenario, _output, _seed, _duration, _runner, _addresses, _host, _listen, _policyAssembly })
        {
            command.Options.Add(option);
        }
    }

    /// <summary>The settings <paramref name="parse"/> gives, with the harness's instruments when it is the harness that runs.</summary>
    public RunSettings Bind(ParseResult parse, HarnessSettings? harness = null) => new(
        parse.GetValue(_scenario), parse.GetValue(_output)!, parse.GetValue(_seed), parse.GetValue(_duration), parse.GetValue(_runner)!,
        parse.GetValue(_addresses), parse.GetValue(_host), parse.GetValue(_listen)!, parse.GetValue(_policyAssembly) ?? [], harness);
}
