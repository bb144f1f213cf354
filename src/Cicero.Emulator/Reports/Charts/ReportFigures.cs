// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// Builds the report's figures from the runs of one scenario: latency and throughput per second per workflow (one
/// panel per configuration), and at each tier Σσ per workflow against the workflow's offered load (Figure 5.9's
/// quantity; one panel per workflow and configuration with rate control), so a reader sees where rate control binds.
/// </summary>
internal static class ReportFigures
{
    /// <summary>Gets the style of the workflow at <paramref name="index"/> in <see cref="WorkflowNames"/>.</summary>
    public static SeriesStyle StyleOf(int index) => SeriesPalette.Of(index);

    /// <summary>Gets every workflow in the order they first appear in the runs (results, then time series and rates).</summary>
    public static List<string> WorkflowNames(IReadOnlyList<TopologyRunResult> runs)
    {
        var names = new List<string>();
        foreach (var run in runs)
        {
            foreach (var name in run.Workflows.Select(static w => w.Workflow).Concat(run.TimeSeries.Select(static s => s.Workflow)).Concat(run.Rates.Select(static r => r.Workflow)))
            {
                if (!names.Contains(name))
                {
                    names.Add(name);
                }
            }
        }

        return names;
    }

    /// <summary>The most Σσ figures a report draws: a topology of thousands of tiers would otherwise write thousands of charts.</summary>
    public const int MaxRateFigures = 16;

    /// <summary>
    /// Gets the tiers to draw Σσ for: those that served requests (a workflow arrived there, or was limited there, in some sample), the
    /// <see cref="MaxRateFigures"/> busiest of them (most arrivals summed over the samples) in the order they first
    /// appear. Rate control samples every tier, called or not; a tier no request reached has nothing to show.
    /// </summary>
    /// <param name="runs">The runs.</param>
    /// <param name="leftOut">How many tiers served requests but are not drawn.</param>
    public static List<string> RateServices(IReadOnlyList<TopologyRunResult> runs, out int leftOut)
    {
        var arrivals = new Dictionary<string, double>(StringComparer.Ordinal);
        var order = new List<string>();
        foreach (var run in runs)
        {
            foreach (var sample in run.Rates)
            {
                if (sample.ArrivalRate > 0 || sample.AdmittedRate > 0 || sample.TotalRate is not null)
                {
                    if (!arrivals.TryGetValue(sample.Service, out var sum))
                    {
                        order.Add(sample.Service);
                    }

                    arrivals[sample.Service] = sum + sample.ArrivalRate;
                }
            }
        }

        leftOut = Math.Max(0, order.Count - MaxRateFigures);
        if (leftOut == 0)
        {
            return order;
        }

        // Busiest first; ties keep the order of first appearance (OrderByDescending is stable).
        var busiest = order.OrderByDescending(s => arrivals[s]).Take(MaxRateFigures).ToHashSet(StringComparer.Ordinal);
        return [.. order.Where(busiest.Contains)];
    }

    /// <summary>
    /// Builds every figure: latency, throughput, then one Σσ figure per tier that served requests (the busiest <see cref="MaxRateFigures"/>). Latency, throughput and
    /// Σσ are drawn on log axes: each spans decades within one run (a 0.5/s workflow beside 800/s ones, milliseconds
    /// beside the RPC timeout).
    /// </summary>
    public static List<Figure> Build(IReadOnlyList<TopologyRunResult> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var workflows = WorkflowNames(runs);
        var legend = workflows.Select(static (w, i) => (w, StyleOf(i))).ToList();
        var xMax = 1.0;
        foreach (var run in runs)
        {
            xMax = Math.Max(xMax, Math.Ceiling(run.EndSeconds));
        }

        List<double> markers = runs.Count == 0 ? [] : [runs[0].WarmUpSeconds, runs[0].DurationSeconds];
        var figures = new List<Figure>
        {
            WithOverlapNotes(new(
                "latency", "Latency: mean of the requests completed each second", "time (s)", "latency (ms, log scale)",
                AxisScale.Logarithmic, Panels(runs, workflows, static s => s.MeanLatencyMs ?? double.NaN, "nothing completed"), legend, xMax, markers)),
            WithOverlapNotes(new(
                "throughput", "Throughput: requests completed each second", "time (s)", "completed (requests/s, log scale)",
                AxisScale.Logarithmic, Panels(runs, workflows, static s => s.Completed, "nothing completed"), legend, xMax, markers)),
        };

        var tiers = RateServices(runs, out var leftOut);
        foreach (var service in tiers)
        {
            figures.Add(SigmaFigure(runs, workflows, service, xMax, markers));
        }

        if (leftOut > 0)
        {
            var last = figures[^1];
            figures[^1] = last with
            {
                Caption = last.Caption + $" {leftOut} more tier(s) served requests and are not drawn (the {tiers.Count} busiest are); rates.csv has every tier's Σσ.",
            };
        }

        return figures;
    }

    private static Figure WithOverlapNotes(Figure figure)
    {
        var (min, max) = FigureRenderer.YLimits(figure);
        var span = figure.YScale == AxisScale.Logarithmic ? Math.Log10(max) - Math.Log10(min) : max - min;
        return figure with { Panels = [.. figure.Panels.Select(p => p with { Note = SeriesOverlap.Note(p.Series, figure.YScale, span) })] };
    }

    private static List<FigurePanel> Panels(IReadOnlyList<TopologyRunResult> runs, List<string> workflows, Func<WorkflowSecond, double> value, string emptyNote)
    {
        var panels = new List<FigurePanel>();
        foreach (var run in runs)
        {
            var series = new List<ChartSeries>();
            for (var w = 0; w < workflows.Count; w++)
            {
                var (xs, ys) = PerSecond(run, workflows[w], value);
                series.Add(new ChartSeries(workflows[w], StyleOf(w), xs, ys));
            }

            panels.Add(new FigurePanel(run.Configuration, series, emptyNote));
        }

        return panels;
    }

    private static (double[] Xs, double[] Ys) PerSecond(TopologyRunResult run, string workflow, Func<WorkflowSecond, double> value)
    {
        var xs = new List<double>();
        var ys = new List<double>();
        foreach (var second in run.TimeSeries)
        {
            if (second.Workflow == workflow)
            {
                // A bin covers [s, s + 1): plot it at its middle.
                AddPoint(xs, ys, second.Second + 0.5, value(second));
            }
        }

        return ([.. xs], [.. ys]);
    }

    /// <summary>
    /// Adds a point of a per-second series, after a gap (NaN, so the line breaks) where seconds are missing: a replay
    /// leaves out long idle stretches (<see cref="IdleGap"/>), and a line across one would draw values nobody measured.
    /// </summary>
    private static void AddPoint(List<double> xs, List<double> ys, double x, double y)
    {
        if (xs.Count > 0 && x - xs[^1] > 1)
        {
            xs.Add(xs[^1] + 1);
            ys.Add(double.NaN);
        }

        xs.Add(x);
        ys.Add(y);
    }

    private static Figure SigmaFigure(IReadOnlyList<TopologyRunResult> runs, List<string> workflows, string service, double xMax, List<double> markers)
    {
        // A run without rate control has σ = ∞ everywhere: a panel of it would be empty, so it is named, not drawn.
        var limitedRuns = runs.Where(r => r.Rates.Any(s => s.Service == service)).ToList();
        var unlimitedRuns = runs.Where(r => !limitedRuns.Contains(r)).Select(static r => r.Configuration).ToList();
        var shown = new List<int>();
        for (var w = 0; w < workflows.Count; w++)
        {
            if (limitedRuns.Any(r => r.Rates.Any(s => s.Service == service && s.Workflow == workflows[w] && s.TotalRate is not null)))
            {
                shown.Add(w);
            }
        }

        var panels = new List<FigurePanel>();
        foreach (var w in shown)
        {
            foreach (var run in limitedRuns)
            {
                var xs = new List<double>();
                var ys = new List<double>();
                foreach (var sample in run.Rates)
                {
                    if (sample.Service == service && sample.Workflow == workflows[w])
                    {
                        // A sample closes second s: it is the state at time s.
                        AddPoint(xs, ys, sample.Second, sample.TotalRate ?? double.NaN);
                    }
                }

                var (offeredXs, offeredYs) = PerSecond(run, workflows[w], static s => s.Offered);
                panels.Add(new FigurePanel(
                    $"{workflows[w]} under {run.Configuration}",
                    [new ChartSeries("Σσ of " + workflows[w], StyleOf(w), [.. xs], [.. ys]), new ChartSeries("offered", SeriesStyle.Reference, offeredXs, offeredYs)],
                    "σ = ∞ throughout"));
            }
        }

        if (shown.Count == 0)
        {
            panels.AddRange(limitedRuns.Select(static r => new FigurePanel(r.Configuration, [], "σ = ∞ throughout")));
        }

        var notes = new List<string>();
        if (unlimitedRuns.Count > 0)
        {
            notes.Add("no rate control (σ = ∞) under " + string.Join(", ", unlimitedRuns));
        }

        var neverLimited = workflows.Where((_, w) => !shown.Contains(w)).ToList();
        if (neverLimited.Count > 0)
        {
            notes.Add("never limited at " + service + ": " + string.Join(", ", neverLimited));
        }

        var legend = shown.Select(w => ("Σσ of " + workflows[w], StyleOf(w))).Append(("offered load", SeriesStyle.Reference)).ToList();
        return new Figure(
            "sigma-" + service,
            $"Σσ at {service}: admission rate per workflow (summed over instances) against its offered load",
            "time (s)",
            "requests/s (log scale)",
            AxisScale.Logarithmic,
            panels,
            legend,
            xMax,
            markers)
        {
            Columns = Math.Max(1, limitedRuns.Count),
            Caption = "Where Σσ falls below the dashed offered load, rate control binds." + (notes.Count > 0 ? " Not drawn: " + string.Join("; ", notes) + "." : string.Empty),
        };
    }
}
