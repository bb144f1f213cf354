// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>What <see cref="RateControlGuarantee.Check"/> found on one generated scenario.</summary>
public sealed class GuaranteeReport
{
    /// <summary>Gets the seed.</summary>
    public int Seed { get; init; }

    /// <summary>Gets the kind of load.</summary>
    public required string LoadKind { get; init; }

    /// <summary>Gets the scenario's description.</summary>
    public required string Description { get; init; }

    /// <summary>Gets every broken promise, one line each; empty when the guarantee holds.</summary>
    public required IReadOnlyList<string> Violations { get; init; }

    /// <summary>
    /// Gets the smallest margin seen, as a fraction of its limit (1 = exactly at a limit, &lt; 1 = broken): completions
    /// over the required completions, limit over p99, and σ's bound over σ. Lower is closer to failing.
    /// </summary>
    public double WorstMargin { get; init; }

    /// <summary>Gets the check the worst margin came from.</summary>
    public required string WorstCheck { get; init; }

    /// <summary>Gets how many simulated runs the check took.</summary>
    public int Runs { get; init; }

    /// <summary>Gets a value indicating whether the guarantee holds.</summary>
    public bool Passed => Violations.Count == 0;
}
