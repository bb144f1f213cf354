// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Net;
using System.Text;
using Cicero.Emulator.Reports.Charts;
using Cicero.Emulator.Reports.Csv;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Reports.Html;

/// <summary>
/// The HTML report: one file with its styles inline, charts as inline SVG and no scripts, links or URLs, so it opens
/// the same from a disk, an e-mail or a CI artefact. Nothing in it depends on the host or the clock, so the same runs
/// give the same bytes.
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
        figcaption { color: #555; font-size: 13px; margin-top: 4px; }
        .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; }
        """;

    public static string Build(IReadOnlyList<TopologyRunResult> runs, IReadOnlyList<(Figure Figure, string Svg)> figures, ScenarioSpec? scenario, IReadOnlyList<string> files)
    {
        var html = new StringBuilder();
        var name = runs.Count > 0 ? runs[0].Scenario : scenario?.Name ?? "scenario";
        html.Append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .Append("<title>Cicero emulator report: ").Append(E(name)).Append("</title>\n<style>\n").Append(Style).Append("</style>\n</head>\n<body>\n")
            .Append("<h1>Cicero emulator report: ").Append(E(name)).Append("</h1>\n");
        if (!string.IsNullOrWhiteSpace(scenario?.Description))
        {
            html.Append("<p>").Append(E(scenario.Description)).Append("</p>\n");
        }

        if (runs.Count > 0)
        {
            var first = runs[0];
            html.Append("<p class=\"meta\">Simulated run, seed ").Append(first.Seed)
                .Append(", workloads for ").Append(F(first.DurationSeconds)).Append(" s, the first ").Append(F(first.WarmUpSeconds))
                .Append(" s of arrivals not measured. Configurations: ").Append(E(string.Join(", ", runs.Select(static r => r.Configuration))))
                .Append(". Counts and latencies below are over the requests that arrived in the measured window; the charts show the whole run, with dashed lines at the end of the warm-up and of the workloads.</p>\n");
        }

        AppendRuns(html, runs);
        AppendOutcomes(html, runs);
        AppendLatencies(html, runs);
        html.Append("<h2>Figures</h2>\n");
        foreach (var (figure, svg) in figures)
        {
            html.Append("<figure id=\"").Append(E(figure.Id)).Append("\">\n").Append(svg)
                .Append("<figcaption>").Append(E(figure.Title)).Append(" (also <code>").Append(E(figure.Id)).Append(".png</code>).</figcaption>\n</figure>\n");
        }

        AppendUtilization(html, runs);
        html.Append("<h2>Files</h2>\n<p class=\"note\">Beside this report: ");
        html.Append(E(string.Join(", ", files))).Append(". The CSV and JSON formats are described in docs/emulator.md.</p>\n");
        html.Append("</body>\n</html>\n");
        return html.ToString();
    }

    private static void AppendRuns(StringBuilder html, IReadOnlyList<TopologyRunResult> runs)
    {
        html.Append("<h2>Runs</h2>\n<table>\n<tr><th class=\"name\">configuration</th><th>requests</th><th>events</th><th>virtual time (s)</th></tr>\n");
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
            .Append("<th>offered</th><th>admitted</th><th>completed</th><th>completed %</th><th>throughput/s</th>");
        foreach (var reason in drops)
        {
            html.Append("<th>dropped:<br>").Append(E(reason)).Append("</th>");
        }

        foreach (var reason in failures)
        {
            html.Append("<th>failed:<br>").Append(E(reason)).Append("</th>");
        }

        html.Append("<th>timed out</th></tr>\n");
        foreach (var (workflow, index) in ReportFigures.WorkflowNames(runs).Select(static (w, i) => (w, i)))
        {
            var first = true;
            foreach (var run in runs)
            {
                if (!TryGet(run, workflow, out var w))
                {
                    continue;
                }

                WorkflowCells(html, workflow, index, run.Configuration, first);
                html.Append("<td>").Append(Count(w.Offered)).Append("</td><td>").Append(Count(w.Admitted)).Append("</td><td>").Append(Count(w.Completed))
                    .Append("</td><td>").Append(double.IsNaN(w.CompletedFraction) ? "–" : (100 * w.CompletedFraction).ToString("F1", CultureInfo.InvariantCulture))
                    .Append("</td><td>").Append(w.Throughput.ToString("F1", CultureInfo.InvariantCulture)).Append("</td>");
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
            .Append("<table>\n<tr><th class=\"name\">workflow</th><th class=\"name\">configuration</th><th>mean</th><th>p50</th><th>p95</th><th>p99</th><th>p99.9</th><th>max</th>")
            .Append(anyLnd ? "<th>LND mean</th><th>LND p50</th><th>LND p95</th><th>LND p99</th><th>LND p99.9</th>" : string.Empty).Append("</tr>\n");
        foreach (var (workflow, index) in ReportFigures.WorkflowNames(runs).Select(static (w, i) => (w, i)))
        {
            var first = true;
            foreach (var run in runs)
            {
                if (!TryGet(run, workflow, out var w))
                {
                    continue;
                }

                WorkflowCells(html, workflow, index, run.Configuration, first);
                var l = w.LatencyMs;
                foreach (var value in (ReadOnlySpan<double>)[l.Mean, l.P50, l.P95, l.P99, l.P999, l.Max])
                {
                    html.Append("<td>").Append(Ms(value)).Append("</td>");
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
            html.Append("<span class=\"swatch\" style=\"background:").Append(ReportFigures.ColorOf(index).ToHex()).Append("\"></span>").Append(E(workflow));
        }

        html.Append("</td><td class=\"name\">").Append(E(configuration)).Append("</td>");
    }

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
