// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>The 5.3.3 scenario at 35 s: 40 throughput clients until 15 s, then 200 (the sweep's two ends).</summary>
public sealed class LowLatencyFixture() : ReproductionFixture("low-latency", scenario =>
{
    scenario.DurationSeconds = 35;
    scenario.WarmUpSeconds = 5;
    var throughput = scenario.Workloads!.Single(w => w.Workflow == "T");
    throughput.Steps = [new() { AtSeconds = ManyClientsFrom, Clients = 200 }];
})
{
    public const int ManyClientsFrom = 15;

    /// <summary>Deadlines met by the six low-latency workflows in [from, to): completed over offered.</summary>
    public double DeadlinesMet(string configuration, int fromSecond, int toSecond) =>
        CompletedFraction(configuration, w => w.StartsWith("LL", StringComparison.Ordinal), fromSecond, toSecond);
}
