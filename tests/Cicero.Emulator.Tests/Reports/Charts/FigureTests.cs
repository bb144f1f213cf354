// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Charts;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Reports.Charts;

/// <summary>The figure defects of issue 20: hidden series, runaway axes, empty panels, σ without the load it limits.</summary>
public sealed class FigureTests
{
    [Fact]
    public void Palette_TwelveSeries_AreDistinctWithoutColourAndWithoutYellow()
    {
        var styles = Enumerable.Range(0, 12).Select(SeriesPalette.Of).ToList();

        Assert.Equal(12, styles.Distinct().Count());

        // Told apart in greyscale too: no two share both pattern and marker.
        Assert.Equal(12, styles.Select(s => (s.Pattern, s.Marker)).Distinct().Count());
        Assert.DoesNotContain(styles, s => s.Color.Equals("#F0E442", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public void Overlap_IdenticalSeries_AreNamed_DistinctOnesAreNot()
    {
        double[] xs = [0.5, 1.5, 2.5, 3.5];
        var a = new ChartSeries("A", SeriesPalette.Of(0), xs, [10, 12, 11, 10]);
        var b = new ChartSeries("B", SeriesPalette.Of(1), xs, [10.05, 12, 11.02, 10]);
        var c = new ChartSeries("C", SeriesPalette.Of(2), xs, [100, 120, 110, 100]);

        Assert.Equal("drawn on top of each other: A = B", SeriesOverlap.Note([a, b, c], AxisScale.Logarithmic, span: 3));
        Assert.Null(SeriesOverlap.Note([a, c], AxisScale.Logarithmic, span: 3));
    }

    [Fact]
    public void LogAxis_LatencyPastTenSeconds_StaysOnThePlot()
    {
        var figure = Figure([new ChartSeries("A", SeriesPalette.Of(0), [0.5, 1.5], [3, 12_500])], AxisScale.Logarithmic);

        var (min, max) = FigureRenderer.YLimits(figure);

        Assert.True(max >= 12_500, $"axis ends at {max}");
        Assert.True(min <= 3 && min > 0);
    }

    [Fact]
    public void Sigma_NoPanelForARunWithoutRateControl_AndEveryPanelShowsTheOfferedLoad()
    {
        TopologyRunResult Run(string name, bool limited) => new()
        {
            Scenario = "s",
            Configuration = name,
            DurationSeconds = 3,
            EndSeconds = 3,
            Workflows = [],
            Resources = [],
            TimeSeries = [.. Enumerable.Range(0, 3).SelectMany(s => new[] { new WorkflowSecond(s, "A", 100, 100, 0, 0, 5), new WorkflowSecond(s, "B", 900, 400, 500, 0, 9) })],
            Rates = limited ? [.. Enumerable.Range(1, 2).SelectMany(s => new[] { new TierRateSecond(s, "fe", "A", 5000, 2), new TierRateSecond(s, "fe", "B", 400, 2) })] : [],
        };

        var figures = ReportFigures.Build([Run("baseline", false), Run("rc", true), Run("rc+drr", true)]);

        var sigma = Assert.Single(figures, f => f.Id == "sigma-fe");
        Assert.Equal(2, sigma.Columns);
        Assert.Equal(4, sigma.Panels.Count); // A and B, under rc and rc+drr; none under baseline
        Assert.DoesNotContain(sigma.Panels, p => p.Title.Contains("baseline", StringComparison.Ordinal));
        Assert.Contains("baseline", sigma.Caption, StringComparison.Ordinal);
        Assert.All(sigma.Panels, p => Assert.Contains(p.Series, s => s.Name == "offered" && s.Ys.SequenceEqual(p.Title.StartsWith('A') ? [100.0, 100, 100] : [900.0, 900, 900])));
        Assert.All(figures, f => Assert.True(FigureRenderer.RenderPng(f).Length > 1_000));
    }

    private static Figure Figure(IReadOnlyList<ChartSeries> series, AxisScale scale) =>
        new("f", "title", "time (s)", "latency (ms)", scale, [new FigurePanel("p", series, "empty")], [], 2, []);
}
