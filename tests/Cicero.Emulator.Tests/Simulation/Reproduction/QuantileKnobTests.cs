// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>Dissertation 5.3.5 (Figure 5.9) at reduced duration: the quantile knob's effect on σ and utilisation.</summary>
public sealed class QuantileKnobTests(QuantileKnobFixture fixture) : IClassFixture<QuantileKnobFixture>
{
    [Fact]
    public void EveryQuantile_FollowsTheMostLoadedBlockServer_OnceTheSplitIsMeasured()
    {
        // Issue 34: per service σ′ is the least rate the instances imply once the call split is measured, so the knob
        // no longer lets the FEs push past the slowest BS (Figure 5.9's q = 1 congested it; a median hid it).
        var min = fixture.Oscillation("q0");
        Assert.Equal(min, fixture.Oscillation("q0.5"), 6);
        Assert.Equal(min, fixture.Oscillation("q1"), 6);
    }

    [Fact]
    public void Minimum_LeavesTheDisksBelowSaturation_AndTheBlockServersProbeAboveTheFrontEnds()
    {
        var disk = fixture.Results.ToDictionary(r => r.Key, r => r.Value.Resources.Single(u => u.Service == "bs" && u.Resource == "disk").Mean);
        Assert.All(disk.Values, d => Assert.InRange(d, 0.05, 0.9));
        Assert.Equal(disk["q0"], disk["q1"], 6);

        // With q = 0 the BSs probe with rates far above what the FEs let through.
        var bsRate = fixture.Results["q0"].Rates.Where(r => r.Workflow == "S" && r.Service == "bs" && r.Second > 20).Average(r => r.TotalRate!.Value);
        var feRate = fixture.Results["q0"].Rates.Where(r => r.Workflow == "S" && r.Service == "fe" && r.Second > 20).Average(r => r.TotalRate!.Value);
        Assert.True(bsRate > 10 * feRate, $"q=0: Σσ {bsRate:F0} at the BSs, {feRate:F0} at the FEs");
    }
}
