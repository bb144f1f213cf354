// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>Cake's consolidation case at 30 s (5 s warm-up) instead of 120 s.</summary>
public sealed class CakeConsolidationFixture() : ReproductionFixture("cake-consolidation", scenario =>
{
    scenario.DurationSeconds = 30;
    scenario.WarmUpSeconds = 5;
});
