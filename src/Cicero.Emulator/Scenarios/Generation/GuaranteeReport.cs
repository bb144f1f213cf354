// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>What <see cref="RateControlGuarantee.Check"/> found on one generated scenario.</summary>
public sealed class GuaranteeReport
{
    /// <summary>The category of a healthy scenario (H1 and H2 apply).</summary>
    public const string Healthy = "healthy";

    /// <summary>The category of a scenario with an aggressor (A1, A2 and A3 apply).</summary>
    public const string Aggressor = "aggressor";

    /// <summary>The category of a scenario neither healthy nor with an aggressor (only conservation and the σ bound apply).</summary>
    public const string Neither = "neither";

    /// <summary>Gets the seed.</summary>
    public int Seed { get; init; }

    /// <summary>Gets the kind of load.</summary>
    public required string LoadKind { get; init; }

    /// <summary>Gets <see cref="Healthy"/>, <see cref="Aggressor"/> or <see cref="Neither"/>.</summary>
    public required string Category { get; init; }

    /// <summary>Gets the scenario's description.</summary>
    public required string Description { get; init; }

    /// <summary>Gets the clauses judged: H1 and H2, or A1, A2 and A3, for <c>rc</c> and for <c>rc+drr</c>.</summary>
    public required IReadOnlyList<GuaranteeClause> Clauses { get; init; }

    /// <summary>Gets every broken conservation or σ-bound promise, one line each.</summary>
    public required IReadOnlyList<string> AlwaysViolations { get; init; }

    /// <summary>Gets the run seeds each configuration ran with.</summary>
    public required IReadOnlyList<int> RunSeeds { get; init; }

    /// <summary>Gets how many simulated runs the check took.</summary>
    public int Runs { get; init; }

    /// <summary>Gets a value indicating whether every clause and every always-promise holds.</summary>
    public bool Passed => AlwaysViolations.Count == 0 && Clauses.All(c => c.Passed);

    /// <summary>Gets the clause with the smallest margin, or <see langword="null"/> when none was judged.</summary>
    public GuaranteeClause? Worst => Clauses.OrderBy(c => c.Margin).FirstOrDefault();

    /// <summary>Whether a clause holds for a configuration.</summary>
    /// <param name="name">H1, H2, A1, A2 or A3.</param>
    /// <param name="configuration"><c>rc</c> or <c>rc+drr</c>.</param>
    /// <returns><see langword="true"/> when it holds (and the clause was judged).</returns>
    public bool Holds(string name, string configuration) =>
        Clauses.Any(c => c.Name == name && c.Configuration == configuration) && Clauses.Where(c => c.Name == name && c.Configuration == configuration).All(c => c.Passed);
}
