// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Simulation.Topology;

/// <summary>
/// The default 5.3.1 scenario shortened to 50 s with the aggressive tenant F starting at 10 s, run once under each of its
/// configurations for all the tests that read it.
/// </summary>
public sealed class PerformanceIsolationFixture
{
    public const double Duration = 50;
    public const double AggressorStart = 10;

    public PerformanceIsolationFixture()
    {
        var scenario = TestScenarios.ReducedPerformanceIsolation(Duration, AggressorStart);
        Results = TopologySimulation.RunAll(scenario).ToDictionary(r => r.Configuration);
    }

    public IReadOnlyDictionary<string, TopologyRunResult> Results { get; }

    /// <summary>Completed over offered for a workflow between two times (by second of arrival and of completion).</summary>
    public double CompletedFraction(string configuration, string workflow, int fromSecond, int toSecond)
    {
        var points = Results[configuration].TimeSeries.Where(p => p.Workflow == workflow && p.Second >= fromSecond && p.Second < toSecond).ToList();
        return (double)points.Sum(p => p.Completed) / points.Sum(p => p.Offered);
    }
}
