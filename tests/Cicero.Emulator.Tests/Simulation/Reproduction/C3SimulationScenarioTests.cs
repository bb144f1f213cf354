// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>The C3 paper's simulation set-up as a topology scenario (T = 500 ms): C3 beats least outstanding.</summary>
public sealed class C3SimulationScenarioTests(C3SimulationScenarioFixture fixture) : IClassFixture<C3SimulationScenarioFixture>
{
    [Fact]
    public void C3_BeatsLeastOutstanding_AtTheTailAndOnAverage()
    {
        var c3 = fixture.Results["c3"]["read"].LatencyMs;
        var lor = fixture.Results["least-outstanding"]["read"].LatencyMs;

        Assert.True(c3.P99 < 0.8 * lor.P99, $"p99: C3 {c3.P99:F0} ms, least outstanding {lor.P99:F0} ms");
        Assert.True(c3.Mean < 0.7 * lor.Mean, $"mean: C3 {c3.Mean:F1} ms, least outstanding {lor.Mean:F1} ms");
    }
}
