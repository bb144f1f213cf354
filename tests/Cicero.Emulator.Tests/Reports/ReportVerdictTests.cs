// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Measurement;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Reports.Verdicts;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Reports;

public sealed class ReportVerdictTests
{
    [Fact]
    public void Of_OneConfigurationBestEverywhere_SaysSoWithTheNumbers()
    {
        var runs = new[]
        {
            Run("baseline", ("A", 0.58, 9_571), ("D", 0.54, 9_321)),
            Run("rc", ("A", 1.0, 3_015), ("D", 1.0, 4_794)),
            Run("rc+drr", ("A", 1.0, 77), ("D", 1.0, 78)),
        };

        var verdict = ReportVerdict.Of(runs);

        var only = Assert.Single(verdict.Classes);
        Assert.Equal(["A", "D"], only.Workflows);
        Assert.Equal("rc+drr", only.Best);
        Assert.False(only.DependsOnGoal);
        Assert.Contains("77–78 ms", only.Sentence, StringComparison.Ordinal);
        Assert.Contains("9.3–9.6 s under baseline", only.Sentence, StringComparison.Ordinal);
        Assert.StartsWith("rc+drr is the best configuration for every workflow", verdict.Summary[0], StringComparison.Ordinal);
    }

    [Fact]
    public void Of_FastButLossy_DependsOnTheGoal()
    {
        var verdict = ReportVerdict.Of([Run("keep", ("F", 0.95, 900)), Run("shed", ("F", 0.4, 50))]);

        var only = Assert.Single(verdict.Classes);
        Assert.Equal("keep", only.Best);
        Assert.Equal("shed", only.LatencyBest);
        Assert.Contains("depends on the goal", only.Sentence, StringComparison.Ordinal);
        Assert.Contains(verdict.Summary, s => s.Contains("depends on the goal for F", StringComparison.Ordinal));
    }

    [Fact]
    public void Of_NothingToChoose_CrownsNoWinner()
    {
        var verdict = ReportVerdict.Of([Run("baseline", ("A", 1.0, 15.2)), Run("rc", ("A", 1.0, 15.0))]);

        var only = Assert.Single(verdict.Classes);
        Assert.Equal(ReportVerdict.Tie, only.Best);
        Assert.Contains("no configuration stands out", only.Sentence, StringComparison.Ordinal);
        Assert.StartsWith("No configuration stands out", Assert.Single(verdict.Summary), StringComparison.Ordinal);
    }

    [Fact]
    public void Html_HighlightsTheBestCellOfEachWorkflow()
    {
        var directory = Path.Combine(Path.GetTempPath(), "cicero-verdict-" + Guid.NewGuid().ToString("N"));
        try
        {
            var files = ReportWriter.Write([Run("slow", ("A", 1.0, 900)), Run("fast", ("A", 1.0, 40))], directory, new ReportOptions { Partial = "stopped by Ctrl-C (SIGINT)" });
            var html = File.ReadAllText(files.Html);

            Assert.Contains("<td class=\"best\">40.0</td>", html, StringComparison.Ordinal);
            Assert.DoesNotContain("<td class=\"best\">900</td>", html, StringComparison.Ordinal);
            Assert.Contains("Partial report:</strong> stopped by Ctrl-C (SIGINT)", html, StringComparison.Ordinal);
            Assert.Contains("\"partial\": \"stopped by Ctrl-C (SIGINT)\"", File.ReadAllText(files.Json), StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    private static TopologyRunResult Run(string configuration, params (string Workflow, double Completed, double P99)[] workflows) => new()
    {
        Scenario = "s",
        Configuration = configuration,
        DurationSeconds = 10,
        EndSeconds = 10,
        Workflows = [.. workflows.Select(w => new WorkflowRunResult
        {
            Workflow = w.Workflow,
            Offered = 1000,
            Completed = (long)(1000 * w.Completed),
            CompletedFraction = w.Completed,
            Throughput = 100 * w.Completed,
            DroppedByReason = new Dictionary<string, long>(),
            FailedByReason = new Dictionary<string, long>(),
            LatencyMs = new DistributionSummary(1000, w.P99 / 2, w.P99 / 3, w.P99 * 0.8, w.P99, w.P99 * 1.2, w.P99 * 1.5),
        })],
        Resources = [],
        TimeSeries = [],
        Rates = [],
    };
}
