// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>The Cassandra-like ring at 10 s (2 s warm-up) instead of 30 s: about 40,000 measured reads per configuration.</summary>
public sealed class CassandraRingFixture() : ReproductionFixture("cassandra-ring", scenario =>
{
    scenario.DurationSeconds = 10;
    scenario.WarmUpSeconds = 2;
});
