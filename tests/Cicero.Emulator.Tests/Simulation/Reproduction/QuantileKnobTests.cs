// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>Dissertation 5.3.5 (Figure 5.9) at reduced duration: the quantile knob's effect on σ and utilisation.</summary>
public sealed class QuantileKnobTests(QuantileKnobFixture fixture) : IClassFixture<QuantileKnobFixture>
{
    [Fact]
    public void Median_OscillatesLessAtTheFrontEndsThanMinimumOrMaximum()
    {
        var min = fixture.Oscillation("q0");
        var median = fixture.Oscillation("q0.5");
        var max = fixture.Oscillation("q1");

        Assert.True(median < min && median < max, $"coefficient of variation of Σσ at the FEs: q=0 {min:F3}, q=0.5 {median:F3}, q=1 {max:F3}");
    }

    [Fact]
    public void Minimum_IsConservative_Maximum_CongestsTheBlockServers()
    {
        var disk = fixture.Results.ToDictionary(r => r.Key, r => r.Value.Resources.Single(u => u.Service == "bs" && u.Resource == "disk").Mean);
        var scan = fixture.Results.ToDictionary(r => r.Key, r => r.Value["S"].Throughput);

        // q = 0 matches the slowest BS and leaves the disks idle; q = 1 pushes the most and congests them.
        Assert.True(disk["q0"] < disk["q0.5"] && disk["q0.5"] < disk["q1"], string.Join(", ", disk.Select(d => $"{d.Key} {d.Value:P0}")));
        Assert.True(scan["q0"] < scan["q0.5"], string.Join(", ", scan.Select(s => $"{s.Key} {s.Value:F0}/s")));

        // With q = 0 the BSs probe with rates far above what the FEs let through.
        var bsRate = fixture.Results["q0"].Rates.Where(r => r.Workflow == "S" && r.Service == "bs" && r.Second > 20).Average(r => r.TotalRate!.Value);
        var feRate = fixture.Results["q0"].Rates.Where(r => r.Workflow == "S" && r.Service == "fe" && r.Second > 20).Average(r => r.TotalRate!.Value);
        Assert.True(bsRate > 10 * feRate, $"q=0: Σσ {bsRate:F0} at the BSs, {feRate:F0} at the FEs");
    }
}
