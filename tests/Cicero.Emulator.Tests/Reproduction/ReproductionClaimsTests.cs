// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reproduction;
using Cicero.Emulator.Tests.Traces;
using Xunit.Abstractions;

namespace Cicero.Emulator.Tests.Reproduction;

/// <summary>
/// The claims docs/reproduction.md judges, at reduced size: every claim the studies mark as checked must hold, and the
/// document must have a place for every section the generator writes.
/// </summary>
[Collection(ReducedReproductionRun.Name)]
public sealed class ReproductionClaimsTests(ReproductionClaimsFixture fixture, ITestOutputHelper output)
{
    [Fact]
    public void EveryCheckedClaim_HoldsAtReducedSize()
    {
        foreach (var claim in fixture.Sections.SelectMany(s => s.Claims))
        {
            output.WriteLine($"{claim.Verdict} {(claim.Checked ? "checked" : "-")} {claim.Id}: {claim.Ours}");
        }

        var checkedClaims = fixture.Sections.SelectMany(s => s.Claims).Where(c => c.Checked).ToList();
        Assert.NotEmpty(checkedClaims);
        Assert.All(checkedClaims, c => Assert.True(c.Holds, $"{c.Id}: {c.Claim}: {c.Ours}"));
    }

    [Fact]
    public void EveryClaim_HasAVerdictAndAReasonWhenMissed()
    {
        var claims = fixture.Sections.SelectMany(s => s.Claims).ToList();
        Assert.Equal(claims.Count, claims.Select(c => c.Id).Distinct().Count());
        Assert.All(claims.Where(c => !c.Holds), c => Assert.False(string.IsNullOrWhiteSpace(c.Reason), c.Id + " is missed without a reason"));
    }

    [Fact]
    public void TheDocument_HasMarkersForEveryGeneratedSection()
    {
        // The sections' tables live on the generated tables page; docs/reproduction.md holds only the claims.
        var path = ReproductionPages.TablesPath(Path.Combine(Path.GetDirectoryName(TraceTestFiles.RepositoryTraces)!, "docs", "reproduction.md"));
        var document = File.ReadAllText(path);

        var filled = ReproductionDocument.Fill(document, fixture.Sections);

        Assert.All(fixture.Sections, s => Assert.Contains(s.Markdown.TrimEnd('\n'), filled, StringComparison.Ordinal));
        Assert.Superset(ScenarioStudy.SectionIds.ToHashSet(), fixture.Sections.Select(s => s.Id).ToHashSet());
    }

    [Fact]
    public void Fill_ReplacesOnlyBetweenMarkers_AndRejectsAMissingMarker()
    {
        const string Document = "intro\n<!-- generated:a -->\nold\n<!-- /generated:a -->\noutro\n";

        var filled = ReproductionDocument.Fill(Document, [new ReproductionSection("a", "new table\n", [])]);

        Assert.Equal("intro\n<!-- generated:a -->\nnew table\n<!-- /generated:a -->\noutro\n", filled);
        Assert.Throws<FormatException>(() => ReproductionDocument.Fill(Document, [new ReproductionSection("b", "x", [])]));
        Assert.Throws<FormatException>(() => ReproductionDocument.Fill(Document + Document, [new ReproductionSection("a", "x", [])]));
    }
}
