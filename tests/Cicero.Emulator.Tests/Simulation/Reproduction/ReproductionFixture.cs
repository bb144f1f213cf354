// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>
/// An embedded reproduction scenario, shortened for tests, run once under each of its configurations for all the tests
/// of a class. Subclasses say how to shorten it.
/// </summary>
public abstract class ReproductionFixture
{
    protected ReproductionFixture(string embeddedName, Action<ScenarioSpec> shorten)
    {
        ArgumentNullException.ThrowIfNull(shorten);
        var scenario = ScenarioLoader.LoadEmbedded(embeddedName);
        shorten(scenario);
        Scenario = scenario;
        Results = TopologySimulation.RunAll(scenario).ToDictionary(r => r.Configuration);
    }

    public ScenarioSpec Scenario { get; }

    public IReadOnlyDictionary<string, TopologyRunResult> Results { get; }

    /// <summary>Completed over offered for the matching workflows in [from, to), by second of arrival and of outcome.</summary>
    public double CompletedFraction(string configuration, Func<string, bool> workflows, int fromSecond, int toSecond)
    {
        var points = Window(configuration, workflows, fromSecond, toSecond);
        return (double)points.Sum(p => p.Completed) / points.Sum(p => p.Offered);
    }

    /// <summary>The mean latency of a workflow's requests completed in [from, to).</summary>
    public double MeanLatencyMs(string configuration, string workflow, int fromSecond, int toSecond)
    {
        var points = Window(configuration, w => w == workflow, fromSecond, toSecond).Where(p => p.Completed > 0).ToList();
        return points.Sum(p => p.MeanLatencyMs!.Value * p.Completed) / points.Sum(p => p.Completed);
    }

    private List<WorkflowSecond> Window(string configuration, Func<string, bool> workflows, int fromSecond, int toSecond) =>
        Results[configuration].TimeSeries.Where(p => workflows(p.Workflow) && p.Second >= fromSecond && p.Second < toSecond).ToList();
}
