// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reproduction;
using Cicero.Emulator.Tests.Traces;

namespace Cicero.Emulator.Tests.Reproduction;

/// <summary>
/// docs/reproduction.md cannot go stale: its claims and the tables page are rendered from the committed result files
/// (results/reproduction/), CI regenerates every section at reduced size and fails when it differs from the committed
/// reduced results, and regenerates Table 5.4 (seconds) at full size. A change that moves a figure must regenerate the
/// results: <c>dotnet run -c Release --project samples/Cicero.Reproduction</c> (add <c>--reduced</c> for CI's files).
/// </summary>
[Collection(ReducedReproductionRun.Name)]
public sealed class ReproductionPageTests(ReproductionClaimsFixture fixture)
{
    private const string Regenerate = "regenerate with `dotnet run -c Release --project samples/Cicero.Reproduction";

    private static readonly string Root = Path.GetDirectoryName(TraceTestFiles.RepositoryTraces)!;

    private static readonly string PagePath = Path.Combine(Root, "docs", "reproduction.md");

    private static IReadOnlyList<ReproductionSection> Full { get; } = ReproductionResults.Read(Path.Combine(Root, ReproductionResults.FullDirectory));

    [Fact]
    public void ThePages_AreRenderedFromTheCommittedResults()
    {
        var page = File.ReadAllText(PagePath);

        Assert.NotEmpty(Full);
        Assert.True(ReproductionPages.Page(page, Full) == page, $"docs/reproduction.md's claims differ from results/reproduction/: {Regenerate} --only …` or render them.");
        Assert.True(ReproductionPages.Tables(Full) == File.ReadAllText(ReproductionPages.TablesPath(PagePath)), $"docs/research/reproduction-tables.md differs from results/reproduction/: {Regenerate}`.");
    }

    [Fact]
    public void EveryStudy_HasFullAndReducedResults()
    {
        var reduced = ReproductionResults.Read(Path.Combine(Root, ReproductionResults.ReducedDirectory)).Select(s => s.Id).ToHashSet();

        Assert.Equal(fixture.Sections.Select(s => s.Id).ToHashSet(), reduced);
        Assert.Superset(reduced, Full.Select(s => s.Id).ToHashSet());
    }

    [Fact]
    public void ReducedRegeneration_EqualsTheCommittedReducedResults()
    {
        var committed = ReproductionResults.Read(Path.Combine(Root, ReproductionResults.ReducedDirectory)).ToDictionary(s => s.Id);

        // The sweep too: its reduced run once differed because the command's --reduced kept Azure's trace (the option's
        // default counted as given), which the test's run leaves out.
        Assert.All(fixture.Sections, s =>
        {
            Assert.True(committed.TryGetValue(s.Id, out var file), $"results/reproduction/reduced/{s.Id}.json is missing: {Regenerate} -- --reduced`.");
            Assert.True(ReproductionResults.Serialize(s) == ReproductionResults.Serialize(file), $"{s.Id} moved at reduced size: {Regenerate} -- --reduced` and at full size.");
        });
    }

    [Fact]
    public void Table54_AtFullSize_IsTheCommittedResult()
    {
        var sections = DeadlineStudy.Run(new ReproductionSettings { BlockTracePath = TraceTestFiles.MetaBlock, Parallelism = 1 });

        Assert.Equal(2, sections.Count);
        Assert.All(sections, s => Assert.Equal(ReproductionResults.Serialize(s), ReproductionResults.Serialize(Assert.Single(Full, f => f.Id == s.Id))));
    }

    [Fact]
    public void Results_RoundTrip_AndThePageNeedsItsClaimsMarkers()
    {
        var section = new ReproductionSection("c3-b", "| a |\n", [new("c3-b.x", "claim", "1", "2", ReproductionVerdict.Tie, "why", Checked: false)]);
        var directory = Directory.CreateTempSubdirectory().FullName;
        try
        {
            ReproductionResults.Write(directory, section);

            var read = Assert.Single(ReproductionResults.Read(directory));
            Assert.Equal(section.Markdown, read.Markdown);
            Assert.Equal(section.Claims, read.Claims);
            Assert.Contains("| claim | 1 | 2 | **tie** |", ReproductionPages.Page("<!-- generated:claims -->\n<!-- /generated:claims -->\n", [read]), StringComparison.Ordinal);
            Assert.Throws<FormatException>(() => ReproductionPages.Page("no markers", [read]));
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }
}
