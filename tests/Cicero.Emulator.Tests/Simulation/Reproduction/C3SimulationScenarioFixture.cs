// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>
/// The C3 paper's set-up on the topology runner, 2 s long (1 s warm-up, about 84,000 measured reads), C3 and least
/// outstanding only; the full-size comparison with the reference numbers is the ReplicaSimulation tests' job.
/// </summary>
public sealed class C3SimulationScenarioFixture() : ReproductionFixture("c3-simulation", scenario =>
{
    scenario.DurationSeconds = 2;
    scenario.WarmUpSeconds = 1;
    scenario.Configurations = scenario.Configurations!.Where(c => c.Name is "c3" or "least-outstanding").ToList();
});
