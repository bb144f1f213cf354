// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reproduction;
using Cicero.Emulator.Simulation.ReplicaSelection;
using Cicero.Emulator.Tests.Traces;

namespace Cicero.Emulator.Tests.Reproduction;

/// <summary>
/// docs/reproduction.md cannot go stale: CI regenerates, at full size, the tables that take seconds (Table 5.4 on the
/// shared sample, the sweep's rows on the shared traces) and sentinel rows of the C3 study, and fails when the page
/// differs. A change that moves any of these figures must regenerate the page (samples/Cicero.Reproduction).
/// </summary>
public sealed class ReproductionPageTests
{
    private static readonly string Page = File.ReadAllText(Path.Combine(Path.GetDirectoryName(TraceTestFiles.RepositoryTraces)!, "docs", "reproduction.md"));

    [Fact]
    public void Table54_OnThePage_IsWhatTheCodeGenerates()
    {
        var sections = DeadlineStudy.Run(new ReproductionSettings { BlockTracePath = TraceTestFiles.MetaBlock, Parallelism = 1 });

        Assert.Equal(2, sections.Count);
        Assert.All(sections, s => Assert.Equal(s.Markdown.TrimEnd('\n') + "\n", ReproductionDocument.Section(Page, s.Id)));
    }

    [Fact]
    public void SweepRows_OfTheSharedTraces_AreOnThePage()
    {
        var settings = new ReproductionSettings
        {
            SweepTraces = [new("block_traces_1", "meta-block", TraceTestFiles.MetaBlock, 4), new("AzureLLMInferenceTrace_code", "azure-llm", TraceTestFiles.AzureLlm, 1)],
            Parallelism = 1,
        };

        var section = Assert.Single(DeadlineSweep.Run(settings));

        var onPage = ReproductionDocument.Section(Page, "deadline-sweep").Split('\n').ToHashSet(StringComparer.Ordinal);
        var rows = section.Markdown.Split('\n').Where(l => l.StartsWith("| block_traces_1 |", StringComparison.Ordinal) || l.StartsWith("| AzureLLMInferenceTrace_code |", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(rows);
        Assert.All(rows, row => Assert.Contains(row, onPage));
    }

    [Fact]
    public void C3SentinelRows_AreOnThePage()
    {
        var settings = new ReproductionSettings { Parallelism = 1 };
        var options = C3Study.Options(150, 0.7, 500);
        var oracle = C3Runs.Run(options, SimulationSelectorNames.Oracle, settings.C3Seeds, 1);
        var c3 = C3Runs.Run(options, SimulationSelectorNames.C3, settings.C3Seeds, 1);

        var section = ReproductionDocument.Section(Page, "c3-main");
        Assert.Contains(C3Study.Row("150 clients, 70%", 500, SimulationSelectorNames.Oracle, oracle, oracle), section, StringComparison.Ordinal);
        Assert.Contains(C3Study.Row("150 clients, 70%", 500, SimulationSelectorNames.C3, c3, oracle), section, StringComparison.Ordinal);
    }
}
