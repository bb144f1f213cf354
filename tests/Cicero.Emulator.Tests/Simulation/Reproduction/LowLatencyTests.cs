// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>Dissertation 5.3.3 (Figure 5.7) at reduced duration: low-latency clients next to 40 and 200 throughput clients.</summary>
public sealed class LowLatencyTests(LowLatencyFixture fixture) : IClassFixture<LowLatencyFixture>
{
    [Theory]
    [InlineData("baseline")]
    [InlineData("cicero")]
    public void FortyThroughputClients_EveryConfigurationMeetsTheDeadlines(string configuration)
    {
        Assert.True(fixture.DeadlinesMet(configuration, 5, LowLatencyFixture.ManyClientsFrom) > 0.99);
    }

    [Fact]
    public void TwoHundredThroughputClients_CiceroMeetsTheDeadlines_TheBaselineMissesThem()
    {
        var cicero = fixture.DeadlinesMet("cicero", 25, 35);
        var baseline = fixture.DeadlinesMet("baseline", 25, 35);

        // The paper reports about 80% for Cicero at 200 clients; ours does better (docs/reproduction.md says why).
        Assert.True(cicero > 0.95, $"Cicero met {cicero:P1} of the deadlines");
        Assert.True(baseline < 0.6, $"the baseline met {baseline:P1} of the deadlines");

        // Every low-latency request Cicero completed was on time; the baseline's late ones failed at their deadline.
        Assert.All(fixture.Results["cicero"].Workflows.Where(w => w.Workflow.StartsWith("LL", StringComparison.Ordinal)), w => Assert.True(w.Lnd!.Max <= 1, w.Workflow));
        Assert.True(fixture.Results["baseline"].Workflows.Where(w => w.Workflow.StartsWith("LL", StringComparison.Ordinal)).Sum(w => w.TimedOut) > 0);
    }
}
