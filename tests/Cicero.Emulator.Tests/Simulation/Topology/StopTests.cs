// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Simulation.Topology;

/// <summary>A simulated run stopped part-way (Ctrl-C) returns what ran, marked interrupted, with every request accounted for.</summary>
public sealed class StopTests
{
    [Fact]
    public void Stop_PartWay_ResultIsInterruptedShorterAndConserves()
    {
        var scenario = TestScenarios.Tiny(duration: 30, warmUp: 1);
        var configuration = scenario.Configurations![0];
        var full = new TopologySimulation(scenario, configuration).Run();
        var simulation = new TopologySimulation(scenario, configuration);

        // The hook runs inside the simulation as each request ends: a deterministic point to stop at, as Ctrl-C would.
        simulation.LeakHook = id =>
        {
            if (id == 800)
            {
                simulation.Stop();
            }

            return false;
        };
        var stopped = simulation.Run();

        Assert.True(stopped.Interrupted);
        Assert.False(full.Interrupted);
        Assert.InRange(stopped.Requests, 800, full.Requests / 2);
        Assert.True(stopped.EndSeconds < full.EndSeconds / 2, $"stopped at {stopped.EndSeconds} s, full run {full.EndSeconds} s");
        var w = stopped["W"];
        Assert.Equal(w.Offered, w.Completed + w.Dropped + w.Failed);

        // Per-second figures are over the measured window up to the stop, not the scenario's 29 s.
        Assert.InRange(w.OfferedRate, 70, 130);
        Assert.Contains("\"interrupted\": true", stopped.ToJson(), StringComparison.Ordinal);
        Assert.DoesNotContain("interrupted", full.ToJson(), StringComparison.Ordinal);
    }
}
