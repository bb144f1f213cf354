// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports;
using Cicero.Emulator.Reports.Charts;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Reports;

/// <summary>A report's cost follows the tiers that served requests, and a stop signal cuts it short.</summary>
public sealed class ReportBoundsTests
{
    [Fact]
    public void RateServices_UncalledTiersAreNotDrawn_AndOnlyTheBusiestAreWhenThereAreMany()
    {
        var used = ReportFigures.MaxRateFigures + 4;
        var rates = new List<TierRateSecond>();
        for (var second = 1; second <= 3; second++)
        {
            for (var tier = 0; tier < used; tier++)
            {
                // Tier i gets i + 1 arrivals a second: tiers 0-3 are the least busy.
                rates.Add(new TierRateSecond(second, "used" + tier, "A", null, 0, ArrivalRate: tier + 1, AdmittedRate: tier + 1));
            }

            for (var tier = 0; tier < 1_000; tier++)
            {
                rates.Add(new TierRateSecond(second, "idle" + tier, "A", null, 0));
            }
        }

        TopologyRunResult[] runs = [Run("rc", rates)];

        var tiers = ReportFigures.RateServices(runs, out var leftOut);
        var figures = ReportFigures.Build(runs);

        Assert.Equal(Enumerable.Range(4, ReportFigures.MaxRateFigures).Select(static t => "used" + t), tiers);
        Assert.Equal(4, leftOut);
        Assert.Equal(2 + ReportFigures.MaxRateFigures, figures.Count);
        Assert.Contains("4 more tier(s) served requests and are not drawn", figures[^1].Caption, StringComparison.Ordinal);
    }

    [Fact]
    public void RateServices_AFewUsedTiers_AllDrawnInOrderWithoutANote()
    {
        TopologyRunResult[] runs = [Run("rc", [new(1, "be", "A", null, 0, 5, 5), new(1, "idle", "A", null, 0), new(1, "fe", "A", 40, 1)])];

        var tiers = ReportFigures.RateServices(runs, out var leftOut);

        Assert.Equal(["be", "fe"], tiers);
        Assert.Equal(0, leftOut);
        Assert.DoesNotContain("not drawn (the", ReportFigures.Build(runs)[^1].Caption, StringComparison.Ordinal);
    }

    [Fact]
    public void Write_Cancelled_WritesTablesAndAPartialReportWithoutFigures()
    {
        var scenario = TestScenarios.Tiny(
            configurations: """[{ "name": "rc", "rateControl": true }]""",
            duration: 3,
            warmUp: 1);
        var runs = TopologySimulation.RunAll(scenario);
        var directory = Path.Combine(Path.GetTempPath(), "cicero-report-" + Guid.NewGuid().ToString("N"));
        try
        {
            using var stop = new CancellationTokenSource();
            stop.Cancel();

            var files = ReportWriter.Write(runs, directory, new ReportOptions { Scenario = scenario }, stop.Token);

            Assert.Equal(ReportFigures.Build(runs).Count, files.FiguresNotDrawn);
            Assert.Empty(files.Png);
            Assert.All(files.Csv, path => Assert.True(File.Exists(path)));
            var html = File.ReadAllText(files.Html);
            Assert.Contains("Partial report:", html, StringComparison.Ordinal);
            Assert.Contains($"{files.FiguresNotDrawn} of {files.FiguresNotDrawn} figures not drawn", html, StringComparison.Ordinal);

            var whole = ReportWriter.Write(runs, directory, new ReportOptions { Scenario = scenario });
            Assert.Equal(0, whole.FiguresNotDrawn);
            Assert.DoesNotContain("Partial report:", File.ReadAllText(whole.Html), StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    private static TopologyRunResult Run(string name, List<TierRateSecond> rates) => new()
    {
        Scenario = "s",
        Configuration = name,
        DurationSeconds = 3,
        EndSeconds = 3,
        Workflows = [],
        Resources = [],
        TimeSeries = [.. Enumerable.Range(0, 3).Select(static s => new WorkflowSecond(s, "A", 10, 10, 0, 0, 5))],
        Rates = rates,
    };
}
