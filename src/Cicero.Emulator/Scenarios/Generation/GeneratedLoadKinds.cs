// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>The kinds of load <see cref="ScenarioGenerator"/> offers on a generated topology.</summary>
public static class GeneratedLoadKinds
{
    /// <summary>Poisson load from every tenant, at 30-95% of the bottleneck's capacity; no aggressor.</summary>
    public const string Steady = "steady";

    /// <summary>Compliant tenants below their fair share plus one aggressive tenant at 2-10x its fair share.</summary>
    public const string Aggressor = "aggressor";

    /// <summary>Steady tenants plus one on/off tenant bursting to 5x its average for a few seconds, at a healthy peak.</summary>
    public const string Bursty = "bursty";

    /// <summary>Gets every kind.</summary>
    public static IReadOnlyList<string> All { get; } = [Steady, Aggressor, Bursty];
}
