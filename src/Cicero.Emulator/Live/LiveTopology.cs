// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Policies.Registration;
using Cicero.Workflows;

namespace Cicero.Emulator.Live;

/// <summary>What every live instance of one run shares: the compiled scenario, plan ids, policies and limits.</summary>
internal sealed class LiveTopology
{
    /// <summary>The header the load generator names the workflow in; entry instances classify by it.</summary>
    public const string WorkflowHeader = "cicero-emulator-workflow";

    private readonly Dictionary<string, TimeSpan?> _deadlines = new(StringComparer.Ordinal);

    public LiveTopology(ScenarioSpec scenario, ConfigurationSpec configuration, PolicyCatalog catalog)
    {
        Compiled = CompiledScenario.Compile(scenario);
        Configuration = configuration;
        Plans = new PlanIndex(Compiled);
        Catalog = configuration.Policies(catalog);
        RpcTimeout = TimeSpan.FromMilliseconds((scenario.Network ?? new NetworkSpec()).RpcTimeoutMs);
        foreach (var workflow in Compiled.Workflows)
        {
            var ms = workflow.DeadlineMs ?? configuration.DeadlineMs;
            _deadlines[workflow.Name] = ms is { } value ? TimeSpan.FromMilliseconds(value) : null;
        }
    }

    public CompiledScenario Compiled { get; }

    public ConfigurationSpec Configuration { get; }

    public PlanIndex Plans { get; }

    public PolicyCatalog Catalog { get; }

    public TimeSpan RpcTimeout { get; }

    public TimeSpan? DeadlineOf(WorkflowId workflow) => _deadlines.GetValueOrDefault(workflow.Value);
}
