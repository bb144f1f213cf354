// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>Dissertation 5.3.4 (Figure 5.8) at reduced duration: rate control shields A from B on their shared PS.</summary>
public sealed class HotspotTests(HotspotFixture fixture) : IClassFixture<HotspotFixture>
{
    [Fact]
    public void RateControl_AfterTheSurgeIsThrottled_ALatencyReturnsNearItsPreSurgeLevel()
    {
        var before = fixture.MeanLatencyMs("rc", "A", 3, HotspotFixture.SurgeStart);
        var after = fixture.MeanLatencyMs("rc", "A", 30, 40);

        Assert.True(after < 1.5 * before, $"A: {before:F1} ms before B, {after:F1} ms in the last 10 s");

        // B is what gets throttled, where it enters.
        Assert.True(fixture.Results["rc"]["B"].Throughput < 0.8 * fixture.Results["baseline"]["B"].Throughput);
    }

    [Fact]
    public void Baseline_Surge_InflatesALatencyForAsLongAsItLasts()
    {
        var before = fixture.MeanLatencyMs("baseline", "A", 3, HotspotFixture.SurgeStart);
        var after = fixture.MeanLatencyMs("baseline", "A", 30, 40);

        Assert.True(after > 5 * before, $"A: {before:F1} ms before B, {after:F1} ms in the last 10 s");
    }

    [Theory]
    [InlineData("C")]
    [InlineData("D")]
    public void RateControl_BackgroundWorkflows_AreNotThrottled(string workflow)
    {
        var result = fixture.Results["rc"][workflow];

        Assert.Equal(result.Offered, result.Completed);
        Assert.Equal(0, result.Dropped);
    }
}
