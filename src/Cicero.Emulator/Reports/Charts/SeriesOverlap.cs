// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// Finds series that a reader cannot tell apart because one is drawn on top of another: within a small fraction of the
/// axis' span at (nearly) every point both have a value. The report names them in the panel instead of hiding them.
/// </summary>
internal static class SeriesOverlap
{
    /// <summary>The closeness, as a fraction of the axis' span, under which two points are drawn on top of each other.</summary>
    public const double Tolerance = 0.015;

    /// <summary>The share of common points that must be that close.</summary>
    public const double Share = 0.9;

    /// <summary>Gets the groups of two or more series that overlap, by name, in series order.</summary>
    /// <param name="series">The panel's series.</param>
    /// <param name="scale">The y axis' scale: log values are compared in decades.</param>
    /// <param name="span">The y axis' span in plotted units (decades on a log axis).</param>
    public static List<List<string>> Groups(IReadOnlyList<ChartSeries> series, AxisScale scale, double span)
    {
        ArgumentNullException.ThrowIfNull(series);
        var group = new int[series.Count];
        for (var i = 0; i < group.Length; i++)
        {
            group[i] = i;
        }

        for (var i = 0; i < series.Count; i++)
        {
            for (var j = i + 1; j < series.Count; j++)
            {
                if (group[j] == j && Overlap(series[i], series[j], scale, span))
                {
                    group[j] = group[i];
                }
            }
        }

        return [.. Enumerable.Range(0, series.Count)
            .GroupBy(i => group[i])
            .Where(g => g.Count() > 1)
            .Select(g => g.Select(i => series[i].Name).ToList())];
    }

    /// <summary>Gets the note naming every overlapping group, or <see langword="null"/> when nothing overlaps.</summary>
    public static string? Note(IReadOnlyList<ChartSeries> series, AxisScale scale, double span)
    {
        var groups = Groups(series, scale, span);
        return groups.Count == 0 ? null : "drawn on top of each other: " + string.Join("; ", groups.Select(g => string.Join(" = ", g)));
    }

    private static bool Overlap(ChartSeries a, ChartSeries b, AxisScale scale, double span)
    {
        var ys = new Dictionary<double, double>();
        for (var k = 0; k < a.Xs.Length; k++)
        {
            if (Plotted(a.Ys[k], scale) is { } y)
            {
                ys[a.Xs[k]] = y;
            }
        }

        var common = 0;
        var close = 0;
        for (var k = 0; k < b.Xs.Length; k++)
        {
            if (Plotted(b.Ys[k], scale) is { } y && ys.TryGetValue(b.Xs[k], out var other))
            {
                common++;
                if (Math.Abs(y - other) <= Tolerance * span)
                {
                    close++;
                }
            }
        }

        return common > 0 && close >= Share * common;
    }

    private static double? Plotted(double y, AxisScale scale) =>
        !double.IsFinite(y) ? null : scale == AxisScale.Linear ? y : y > 0 ? Math.Log10(y) : null;
}
