// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>Wu's thesis (chapter 5) in a 6-node ring at reduced duration: replica selection under background activity.</summary>
public sealed class CassandraRingTests(CassandraRingFixture fixture) : IClassFixture<CassandraRingFixture>
{
    [Theory]
    [InlineData("c3", "ds")]
    [InlineData("c3-background", "ds")]
    [InlineData("c3+local", "ds+local")]
    [InlineData("c3-background+local", "ds+local")]
    public void AdaptiveSelection_BeatsTheDynamicSnitchAtTheTail(string adaptive, string snitch)
    {
        var ours = fixture.Results[adaptive]["read"].LatencyMs.P99;
        var theirs = fixture.Results[snitch]["read"].LatencyMs.P99;

        Assert.True(ours < 0.5 * theirs, $"p99: {adaptive} {ours:F1} ms, {snitch} {theirs:F1} ms");
    }

    [Fact]
    public void LocalFastPath_CutsTheDynamicSnitchsTail()
    {
        var local = fixture.Results["ds+local"]["read"].LatencyMs.P99;
        var remote = fixture.Results["ds"]["read"].LatencyMs.P99;

        Assert.True(local < remote, $"p99: ds+local {local:F1} ms, ds {remote:F1} ms");
    }

    [Fact]
    public void EveryConfiguration_CompletesEveryRead()
    {
        Assert.All(fixture.Results.Values, r => Assert.Equal(r["read"].Offered, r["read"].Completed));
    }
}
