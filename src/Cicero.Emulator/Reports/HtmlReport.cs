// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Net;
using System.Text;
using Cicero.Emulator.Reports.Charts;
using Cicero.Emulator.Reports.Csv;
using Cicero.Emulator.Reports.Verdicts;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Reports;

/// <summary>
/// The HTML report: a verdict and an executive summary first, then the detail (outcomes, latencies, figures,
/// utilisation), best values highlighted and every header with its unit. One file with its styles inline, figures as
/// inline PNG data and no scripts, links or external URLs, so it opens the same from a disk, an e-mail or a CI artefact.
/// Nothing in it depends on the host or the clock, so the same runs give the same bytes.
/// </summary>
internal static class HtmlReport
{
    public const string FileName = "report.html";

    private const string Style = """
        body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #222; max-width: 1240px; }
        h1 { font-size: 22px; margin-bottom: 4px; }
        h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
        p.meta, p.note { color: #555; font-size: 14px; }
        table { border-collapse: collapse; font-size: 13px; margin: 8px 0 16px; }
        th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
        th { background: #f4f4f4; }
        td.name, th.name { text-align: left; }
        tr.first td { border-top: 2px solid #bbb; }
        figure { margin: 16px 0 28px; }
        figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
        td.best { font-weight: bold; background: #e3f1e6; }
        div.verdict { background: #f3f7fb; border-left: 4px solid #0072B2; padding: 8px 16px; margin: 12px 0; }
        div.verdict p { margin: 6px 0; }
        div.partial { background: #fff4e0; border-left: 4px solid #D55E00; padding: 8px 16px; margin: 12px 0; }
        ul.verdicts li { margin: 4px 0; }
        figcaption { color: #555; font-size: 13px; margin-top: 4px; }
        .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; }
        """;

    public static string Build(IReadOnlyList<TopologyRunResult> runs, IReadOnlyList<(Figure Figure, byte[] Png)> figures, ReportOptions options, IReadOnlyList<string> files)
    {
        var scenario = options.Scenario;
        var html = new StringBuilder();
        var name = runs.Count > 0 ? runs[0].Scenario : scenario?.Name ?? "scenario";
        html.Append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .Append("<title>Cicero emulator report: ").Append(E(name)).Append("</title>\n<style>\n").Append(Style).Append("</style>\n</head>\n<body>\n")
            .Append("<h1>Cicero emulator report: ").Append(E(name)).Append("</h1>\n");
        if (!string.IsNullOrWhiteSpace(scenario?.Description))
        {
            html.Append("<p>").Append(E(scenario.Description)).Append("</p>\n");
        }

        if (ReportWriter.PartialNote(runs, options) is { } partial)
        {
            html.Append("<div class=\"partial\"><strong>Partial report:</strong> ").Append(E(partial))
                .Append(". Every figure below covers only what ran; every request offered still has its outcome.</div>\n");
        }

        if (options.RepeatedRunsVerdict is { Count: > 0 } repeated)
        {
            html.Append("<h2>Verdict over repeated runs</h2>\n<ul class=\"verdicts\">\n");
            foreach (var sentence in repeated)
            {
                html.Append("<li>").Append(E(sentence)).Append("</li>\n");
            }

            html.Append("</ul>\n<p class=\"note\">Ranges are the lowest and highest over the runs; a configuration wins only where its range clears every other's. The sections below show the first run of each configuration.</p>\n");
        }

        AppendVerdict(html, runs, options.HostBottleneck);
        if (runs.Count > 0)
        {
            var first = runs[0];
            var end = runs.Max(static r => r.EndSeconds);
            html.Append("<h2>Detail</h2>\n<p class=\"meta\">").Append(E(Capitalized(options.Runner))).Append(" run, seed ").Append(first.Seed)
                .Append(first.WarmUpSeconds == 0 && end < first.DurationSeconds
                    // A replay sped up: its load spans less time than the trace's.
                    ? ", the trace's " + F(first.DurationSeconds) + " s of arrivals offered in " + F(Math.Round(end, 1)) + " s, every request measured"
                    : ", workloads for " + F(first.DurationSeconds) + " s" + (first.WarmUpSeconds > 0 ? ", the first " + F(first.WarmUpSeconds) + " s of arrivals not measured" : ", every request measured"))
                .Append(". Configurations: ").Append(E(string.Join(", ", runs.Select(static r => r.Configuration))))
                .Append(". Counts and latencies below are over the requests that arrived in the measured window; the charts show the whole run, with dashed lines at the end of the warm-up and of the workloads.</p>\n");
        }

        AppendRuns(html, runs);
        AppendOutcomes(html, runs);
        AppendLatencies(html, runs);
        html.Append("<h2>Figures</h2>\n");
        foreach (var (figure, png) in figures)
        {
            AppendFigure(html, figure, png);
        }

        AppendUtilization(html, runs);
        html.Append("<h2>Files</h2>\n<p class=\"note\">Beside this report: ");
        html.Append(E(string.Join(", ", files))).Append(". The CSV and JSON formats are described in docs/emulator.md.</p>\n");
        html.Append("</body>\n</html>\n");
        return html.ToString();
    }

    /// <summary>Appends a figure as an inline PNG at its logical size (the PNG has twice the pixels, for high-DPI screens).</summary>
    public static void AppendFigure(StringBuilder html, Figure figure, byte[] png)
    {
        var (width, height) = FigureRenderer.Size(figure);
        html.Append("<figure id=\"").Append(E(figure.Id)).Append("\">\n<img width=\"").Append(width).Append("\" height=\"").Append(height)
            .Append("\" alt=\"").Append(E(figure.Title)).Append("\" src=\"data:image/png;base64,").Append(Convert.ToBase64String(png)).Append("\">\n")
            .Append("<figcaption>").Append(E(figure.Title)).Append(figure.Caption is null ? string.Empty : ". " + E(figure.Caption))
            .Append(" (also <code>").Append(E(figure.Id)).Append(".png</code>).</figcaption>\n</figure>\n");
    }

    private static void AppendVerdict(StringBuilder html, IReadOnlyList<TopologyRunResult> runs, string? hostBottleneck)
    {
        html.Append("<h2>Verdict</h2>\n<div class=\"verdict\">\n");
        if (hostBottleneck is not null)
        {
            // A saturated host distorts every configuration's figures its own way: naming a best one would mislead.
            html.Append("<p>No winner: the host itself was the bottleneck. ").Append(E(hostBottleneck)).Append("</p>\n</div>\n");
            return;
        }

        var verdict = ReportVerdict.Of(runs);
        foreach (var sentence in verdict.Summary)
        {
            html.Append("<p>").Append(E(sentence)).Append("</p>\n");
        }

        html.Append("</div>\n");
        if (verdict.Classes.Count > 0)
        {
            html.Append("<ul class=\"verdicts\">\n");
            foreach (var workflowClass in verdict.Classes)
            {
                html.Append("<li>").Append(E(workflowClass.Sentence)).Append("</li>\n");
            }

            html.Append("</ul>\n<p class=\"note\">Best: the most offered requests completed (within ")
                .Append(F(100 * ReportVerdict.GoodputTolerance)).Append(" points of the highest) and, among those, the lowest p99 latency of completed requests. ")
                .Append("Best values are highlighted in the tables below.</p>\n");
        }
    }

    private static void AppendRuns(StringBuilder html, IReadOnlyList<TopologyRunResult> runs)
    {
        html.Append("<h2>Runs</h2>\n<table>\n<tr><th class=\"name\">configuration</th><th>requests</th><th>events</th><th>run time (s)</th></tr>\n");
        foreach (var run in runs)
        {
            html.Append("<tr><td class=\"name\">").Append(E(run.Configuration)).Append("</td><td>").Append(Count(run.Requests))
                .Append("</td><td>").Append(Count(run.Events)).Append("</td><td>").Append(F(run.EndSeconds)).Append("</td></tr>\n");
        }

        html.Append("</table>\n");
    }

    private static void AppendOutcomes(StringBuilder html, IReadOnlyList<TopologyRunResult> runs)
    {
        var drops = CsvReport.Reasons(runs, failures: false);
        // Timeouts have their own column, the last; other failure reasons (no-replica) get one each.
        var failures = CsvReport.Reasons(runs, failures: true).Where(static r => r != Outcome.Timeout).ToList();
        html.Append("<h2>Outcomes per workflow</h2>\n<table>\n<tr><th class=\"name\">workflow</th><th class=\"name\">configuration</th>")
            .Append("<th>offered (requests)</th><th>admitted (requests)</th><th>completed (requests)</th><th>completed (% of offered)</th><th>throughput (requests/s)</th>");
        foreach (var reason in drops)
        {
            html.Append("<th>dropped: ").Append(E(reason)).Append("<br>(requests)</th>");
        }

        foreach (var reason in failures)
        {
            html.Append("<th>failed: ").Append(E(reason)).Append("<br>(requests)</th>");
        }

        html.Append("<th>timed out (requests)</th></tr>\n");
        foreach (var (workflow, index) in ReportFigures.WorkflowNames(runs).Select(static (w, i) => (w, i)))
        {
            var first = true;
            var bestFraction = Best(runs, workflow, static w => w.CompletedFraction, highest: true);
            var bestThroughput = Best(runs, workflow, static w => w.Throughput, highest: true);
            foreach (var run in runs)
            {
                if (!TryGet(run, workflow, out var w))
                {
                    continue;
                }

                WorkflowCells(html, workflow, index, run.Configuration, first);
                html.Append("<td>").Append(Count(w.Offered)).Append("</td><td>").Append(Count(w.Admitted)).Append("</td><td>").Append(Count(w.Completed)).Append("</td>")
                    .Append(Cell(w.CompletedFraction, bestFraction)).Append(double.IsNaN(w.CompletedFraction) ? "–" : (100 * w.CompletedFraction).ToString("F1", CultureInfo.InvariantCulture)).Append("</td>")
                    .Append(Cell(w.Throughput, bestThroughput)).Append(w.Throughput.ToString("F1", CultureInfo.InvariantCulture)).Append("</td>");
                foreach (var reason in drops)
                {
                    html.Append("<td>").Append(Count(w.DroppedByReason.TryGetValue(reason, out var n) ? n : 0)).Append("</td>");
                }

                foreach (var reason in failures)
                {
                    html.Append("<td>").Append(Count(w.FailedByReason.TryGetValue(reason, out var n) ? n : 0)).Append("</td>");
                }

                html.Append("<td>").Append(Count(w.TimedOut)).Append("</td></tr>\n");
                first = false;
            }
        }

        html.Append("</table>\n");
    }

    private static void AppendLatencies(StringBuilder html, IReadOnlyList<TopologyRunResult> runs)
    {
        // LND needs a deadline; a scenario without any gets no empty LND columns, and the note says why.
        var anyLnd = runs.Any(static r => r.Workflows.Any(static w => w.Lnd is not null));
        html.Append("<h2>Latency of completed requests</h2>\n<p class=\"note\">Latency in milliseconds as the client saw it. ")
            .Append(anyLnd
                ? "LND is the latency normalised by the request's deadline (1 = exactly on the deadline), shown when the workflow has one.</p>\n"
                : "No workflow has a deadline in this scenario, so there is no latency normalised by deadline (LND).</p>\n")
            .Append("<table>\n<tr><th class=\"name\">workflow</th><th class=\"name\">configuration</th><th>mean (ms)</th><th>p50 (ms)</th><th>p95 (ms)</th><th>p99 (ms)</th><th>p99.9 (ms)</th><th>max (ms)</th>")
            .Append(anyLnd ? "<th>LND mean (ratio)</th><th>LND p50 (ratio)</th><th>LND p95 (ratio)</th><th>LND p99 (ratio)</th><th>LND p99.9 (ratio)</th>" : string.Empty).Append("</tr>\n");
        foreach (var (workflow, index) in ReportFigures.WorkflowNames(runs).Select(static (w, i) => (w, i)))
        {
            var first = true;
            Func<WorkflowRunResult, double>[] statistics = [static w => w.LatencyMs.Mean, static w => w.LatencyMs.P50, static w => w.LatencyMs.P95, static w => w.LatencyMs.P99, static w => w.LatencyMs.P999, static w => w.LatencyMs.Max];
            var best = statistics.Select(s => Best(runs, workflow, s, highest: false)).ToArray();
            foreach (var run in runs)
            {
                if (!TryGet(run, workflow, out var w))
                {
                    continue;
                }

                WorkflowCells(html, workflow, index, run.Configuration, first);
                for (var k = 0; k < statistics.Length; k++)
                {
                    var value = statistics[k](w);
                    html.Append(Cell(value, best[k])).Append(Ms(value)).Append("</td>");
                }

                if (anyLnd)
                {
                    ReadOnlySpan<double> lnd = w.Lnd is { } d ? [d.Mean, d.P50, d.P95, d.P99, d.P999] : [double.NaN, double.NaN, double.NaN, double.NaN, double.NaN];
                    foreach (var value in lnd)
                    {
                        html.Append("<td>").Append(double.IsFinite(value) ? value.ToString("F3", CultureInfo.InvariantCulture) : "–").Append("</td>");
                    }
                }

                html.Append("</tr>\n");
                first = false;
            }
        }

        html.Append("</table>\n");
    }

    private static void AppendUtilization(StringBuilder html, IReadOnlyList<TopologyRunResult> runs)
    {
        html.Append("<h2>Resource utilisation</h2>\n<p class=\"note\">Permits held over permits available in the measured window: ")
            .Append("the mean over the service's instances, and the busiest instance in brackets.</p>\n<table>\n<tr><th class=\"name\">service</th><th class=\"name\">resource</th><th class=\"name\">kind</th><th>capacity</th>");
        foreach (var run in runs)
        {
            html.Append("<th>").Append(E(run.Configuration)).Append("</th>");
        }

        html.Append("</tr>\n");
        if (runs.Count > 0)
        {
            foreach (var resource in runs[0].Resources)
            {
                html.Append("<tr><td class=\"name\">").Append(E(resource.Service)).Append("</td><td class=\"name\">").Append(E(resource.Resource))
                    .Append("</td><td class=\"name\">").Append(E(resource.Kind)).Append("</td><td>").Append(resource.Capacity).Append("</td>");
                foreach (var run in runs)
                {
                    var match = run.Resources.FirstOrDefault(r => r.Service == resource.Service && r.Resource == resource.Resource);
                    html.Append("<td>").Append(match is null ? "–" : string.Create(CultureInfo.InvariantCulture, $"{100 * match.Mean:F1}% ({100 * match.Max:F1}%)")).Append("</td>");
                }

                html.Append("</tr>\n");
            }
        }

        html.Append("</table>\n");
    }

    private static void WorkflowCells(StringBuilder html, string workflow, int index, string configuration, bool first)
    {
        html.Append(first ? "<tr class=\"first\">" : "<tr>").Append("<td class=\"name\">");
        if (first)
        {
            html.Append("<span class=\"swatch\" style=\"background:").Append(ReportFigures.StyleOf(index).Color).Append("\"></span>").Append(E(workflow));
        }

        html.Append("</td><td class=\"name\">").Append(E(configuration)).Append("</td>");
    }

    /// <summary>Gets the best value of a statistic for a workflow over the runs (NaN when fewer than two runs have one: nothing to highlight).</summary>
    private static double Best(IReadOnlyList<TopologyRunResult> runs, string workflow, Func<WorkflowRunResult, double> statistic, bool highest)
    {
        var values = runs.Select(r => TryGet(r, workflow, out var w) ? statistic(w) : double.NaN).Where(double.IsFinite).ToList();
        return values.Count < 2 || values.Min() == values.Max() ? double.NaN : highest ? values.Max() : values.Min();
    }

    private static string Cell(double value, double best) => double.IsFinite(best) && value == best ? "<td class=\"best\">" : "<td>";

    private static string Capitalized(string text) => text.Length == 0 ? text : char.ToUpperInvariant(text[0]) + text[1..];

    private static bool TryGet(TopologyRunResult run, string workflow, out WorkflowRunResult result)
    {
        foreach (var w in run.Workflows)
        {
            if (w.Workflow == workflow)
            {
                result = w;
                return true;
            }
        }

        result = null!;
        return false;
    }

    private static string Ms(double value) => !double.IsFinite(value) ? "–" : value switch
    {
        < 10 => value.ToString("F2", CultureInfo.InvariantCulture),
        < 100 => value.ToString("F1", CultureInfo.InvariantCulture),
        _ => value.ToString("N0", CultureInfo.InvariantCulture),
    };

    private static string Count(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string F(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);

    private static string E(string text) => WebUtility.HtmlEncode(text);
}
