// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>Cake (SoCC '12) Figure 1 and section 6 at reduced duration: a front end's p99 SLO next to batch scans.</summary>
public sealed class CakeConsolidationTests(CakeConsolidationFixture fixture) : IClassFixture<CakeConsolidationFixture>
{
    [Fact]
    public void CakeSlo_FrontEndMeetsItsP99Slo_NaiveConsolidationDoesNot()
    {
        var slo = fixture.Scenario.Workflows!.Single(w => w.Name == "frontend").LatencySloMs!.Value;

        var cake = fixture.Results["cake"]["frontend"].LatencyMs.P99;
        var baseline = fixture.Results["baseline"]["frontend"].LatencyMs.P99;

        Assert.True(cake <= slo, $"Cake: p99 {cake:F0} ms against an SLO of {slo:F0} ms");
        Assert.True(baseline > 5 * slo, $"baseline: p99 {baseline:F0} ms against an SLO of {slo:F0} ms");
    }

    [Fact]
    public void CakeSlo_BatchKeepsItsThroughput()
    {
        var cake = fixture.Results["cake"]["batch"].Throughput;
        var baseline = fixture.Results["baseline"]["batch"].Throughput;

        Assert.True(cake > 0.9 * baseline, $"batch: {cake:F1} scans/s under Cake, {baseline:F1} without");
    }
}
