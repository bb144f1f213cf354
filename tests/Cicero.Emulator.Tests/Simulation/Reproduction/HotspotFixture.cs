// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>The 5.3.4 hotspot at 40 s: B's 30 clients start at 10 s (not 40) and double at 20 s (not 60).</summary>
public sealed class HotspotFixture() : ReproductionFixture("hotspot", scenario =>
{
    scenario.DurationSeconds = 40;
    scenario.WarmUpSeconds = 3;
    var b = scenario.Workloads!.Single(w => w.Workflow == "B");
    b.StartSeconds = SurgeStart;
    b.Steps![0].AtSeconds = SurgeDoubles;
})
{
    public const int SurgeStart = 10;
    public const int SurgeDoubles = 20;
}
