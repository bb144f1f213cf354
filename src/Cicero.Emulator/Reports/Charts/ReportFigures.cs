// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Imaging;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// Builds the report's figures from the runs of one scenario: latency and throughput per second per workflow, and
/// Σσ per workflow at each tier (Figure 5.9's quantity), one panel per configuration.
/// </summary>
internal static class ReportFigures
{
    // Tableau 10: distinct hues that survive the thin lines of a chart and print in greyscale as different shades.
    private static readonly Rgb[] Palette =
    [
        Rgb.Parse("#4e79a7"), Rgb.Parse("#f28e2b"), Rgb.Parse("#e15759"), Rgb.Parse("#76b7b2"), Rgb.Parse("#59a14f"),
        Rgb.Parse("#edc948"), Rgb.Parse("#b07aa1"), Rgb.Parse("#ff9da7"), Rgb.Parse("#9c755f"), Rgb.Parse("#bab0ac"),
    ];

    /// <summary>Gets the colour of the workflow at <paramref name="index"/> in <see cref="WorkflowNames"/>.</summary>
    public static Rgb ColorOf(int index) => Palette[index % Palette.Length];

    /// <summary>Gets every workflow in the order they first appear in the runs.</summary>
    public static List<string> WorkflowNames(IReadOnlyList<TopologyRunResult> runs)
    {
        var names = new List<string>();
        foreach (var run in runs)
        {
            foreach (var workflow in run.Workflows)
            {
                if (!names.Contains(workflow.Workflow))
                {
                    names.Add(workflow.Workflow);
                }
            }
        }

        return names;
    }

    /// <summary>Gets every service with rate samples, in the order they first appear.</summary>
    public static List<string> RateServices(IReadOnlyList<TopologyRunResult> runs)
    {
        var services = new List<string>();
        foreach (var run in runs)
        {
            foreach (var sample in run.Rates)
            {
                if (!services.Contains(sample.Service))
                {
                    services.Add(sample.Service);
                }
            }
        }

        return services;
    }

    /// <summary>
    /// Builds every figure: latency, throughput, then one Σσ figure per tier with rate samples. Σσ is drawn on a log
    /// scale: the rates of unconstrained workflows keep climbing while a throttled one sits orders of magnitude lower.
    /// </summary>
    public static List<Figure> Build(IReadOnlyList<TopologyRunResult> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var workflows = WorkflowNames(runs);
        var legend = new List<(string, Rgb)>();
        for (var w = 0; w < workflows.Count; w++)
        {
            legend.Add((workflows[w], ColorOf(w)));
        }

        var xMax = 1.0;
        foreach (var run in runs)
        {
            xMax = Math.Max(xMax, Math.Ceiling(run.EndSeconds));
        }

        List<double> markers = runs.Count == 0 ? [] : [runs[0].WarmUpSeconds, runs[0].DurationSeconds];
        var figures = new List<Figure>
        {
            new(
                "latency", "Latency: mean of the requests completed each second", "time (s)", "latency (ms, log scale)",
                AxisScale.Logarithmic, Panels(runs, workflows, static s => s.MeanLatencyMs ?? double.NaN, "nothing completed"), legend, xMax, markers),
            new(
                "throughput", "Throughput: requests completed each second", "time (s)", "completed per second",
                AxisScale.Linear, Panels(runs, workflows, static s => s.Completed, "nothing completed"), legend, xMax, markers),
        };

        foreach (var service in RateServices(runs))
        {
            figures.Add(new(
                "sigma-" + service, $"Σσ at {service}: admission rate per workflow, summed over instances",
                "time (s)", "requests/s (log scale)", AxisScale.Logarithmic, RatePanels(runs, workflows, service), legend, xMax, markers));
        }

        return figures;
    }

    private static List<FigurePanel> Panels(IReadOnlyList<TopologyRunResult> runs, List<string> workflows, Func<WorkflowSecond, double> value, string emptyNote)
    {
        var panels = new List<FigurePanel>();
        foreach (var run in runs)
        {
            var series = new List<ChartSeries>();
            for (var w = 0; w < workflows.Count; w++)
            {
                var xs = new List<double>();
                var ys = new List<double>();
                foreach (var second in run.TimeSeries)
                {
                    if (second.Workflow == workflows[w])
                    {
                        // A bin covers [s, s + 1): plot it at its middle.
                        xs.Add(second.Second + 0.5);
                        ys.Add(value(second));
                    }
                }

                series.Add(new ChartSeries(workflows[w], ColorOf(w), [.. xs], [.. ys]));
            }

            panels.Add(new FigurePanel(run.Configuration, series, emptyNote));
        }

        return panels;
    }

    private static List<FigurePanel> RatePanels(IReadOnlyList<TopologyRunResult> runs, List<string> workflows, string service)
    {
        var panels = new List<FigurePanel>();
        foreach (var run in runs)
        {
            var series = new List<ChartSeries>();
            for (var w = 0; w < workflows.Count; w++)
            {
                var xs = new List<double>();
                var ys = new List<double>();
                foreach (var sample in run.Rates)
                {
                    if (sample.Service == service && sample.Workflow == workflows[w])
                    {
                        // A sample closes second s: it is the state at time s.
                        xs.Add(sample.Second);
                        ys.Add(sample.TotalRate ?? double.NaN);
                    }
                }

                series.Add(new ChartSeries(workflows[w], ColorOf(w), [.. xs], [.. ys]));
            }

            var note = run.Rates.Count == 0 ? "σ = ∞ (no rate control)" : "σ = ∞ throughout";
            panels.Add(new FigurePanel(run.Configuration, series, note));
        }

        return panels;
    }
}
