// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Cicero.Emulator.Reports.Charts;
using Cicero.Emulator.Reports.Csv;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.Emulator.Reports;

/// <summary>
/// Writes the deadline experiment (<see cref="DeadlineExperiment"/>) as <c>deadline.csv</c>, <c>deadline.json</c>, a
/// chart of the latency normalised by deadline per load level (<c>deadline-lnd.png</c>) and a self-contained
/// <c>deadline.html</c> with the table in the layout of the dissertation's Table 5.4.
/// </summary>
public static class DeadlineReportWriter
{
    /// <summary>The HTML file's name.</summary>
    public const string HtmlFileName = "deadline.html";

    /// <summary>Writes the files into <paramref name="directory"/>, creating it if needed.</summary>
    /// <param name="result">The experiment's result.</param>
    /// <param name="directory">The output folder.</param>
    /// <param name="title">What was replayed, for the page's heading (e.g. the trace file's name).</param>
    /// <param name="partial">Why the experiment is partial (stopped by Ctrl-C, say), or <see langword="null"/> when it ran whole.</param>
    /// <returns>The files written.</returns>
    public static ReportFiles Write(DeadlineExperimentResult result, string directory, string title, string? partial = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        ArgumentNullException.ThrowIfNull(title);
        if (result.Rows.Count == 0)
        {
            throw new ArgumentException("The experiment has no rows.", nameof(result));
        }

        var folder = Path.GetFullPath(directory);
        Directory.CreateDirectory(folder);
        var csv = ReportWriter.WriteText(folder, "deadline.csv", Csv(result));
        var json = ReportWriter.WriteText(folder, "deadline.json", Json(result, title, partial));
        var figure = Chart(result);
        var bytes = FigureRenderer.RenderPng(figure);
        var png = Path.Combine(folder, figure.Id + ".png");
        File.WriteAllBytes(png, bytes);
        var image = new StringBuilder();
        Reports.HtmlReport.AppendFigure(image, figure, bytes);
        var html = ReportWriter.WriteText(folder, HtmlFileName, Html(result, title, image.ToString(), partial));
        return new ReportFiles { Directory = folder, Html = html, Json = json, Csv = [csv], Png = [png] };
    }

    private static string Csv(DeadlineExperimentResult result)
    {
        var table = new CsvTable(result.ClosedLoop ? "clients" : "speed_up", "algorithm", "offered", "completed", "dropped", "timed_out", "lnd_mean", "lnd_p95", "lnd_p99", "drop_fraction", "late_fraction", "goodput");
        foreach (var row in result.Rows)
        {
            table.Field(row.LoadLevel).Field(row.Configuration).Field(row.Offered).Field(row.Completed).Field(row.Dropped).Field(row.TimedOut)
                .Field(row.LndMean).Field(row.LndP95).Field(row.LndP99).Field(row.DropFraction).Field(row.LateFraction).Field(row.Goodput);
            table.EndRow();
        }

        return table.ToString();
    }

    private static string Json(DeadlineExperimentResult result, string title, string? partial)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            writer.WriteStartObject();
            writer.WriteString("trace", title);
            if (partial is not null)
            {
                writer.WriteString("partial", partial);
            }

            writer.WriteNumber("k", result.K);
            writer.WriteNumber("isolatedMeanMs", result.IsolatedMeanMs);
            writer.WriteNumber("isolatedMaxMs", result.IsolatedMaxMs);
            writer.WriteString("loadLevel", result.ClosedLoop ? "clients" : "speed-up");
            writer.WriteStartArray("rows");
            foreach (var row in result.Rows)
            {
                writer.WriteStartObject();
                writer.WriteNumber("loadLevel", row.LoadLevel);
                writer.WriteString("algorithm", row.Configuration);
                writer.WriteNumber("offered", row.Offered);
                writer.WriteNumber("completed", row.Completed);
                writer.WriteNumber("dropped", row.Dropped);
                writer.WriteNumber("timedOut", row.TimedOut);
                writer.WriteNumber("lndMean", row.LndMean);
                writer.WriteNumber("lndP95", row.LndP95);
                writer.WriteNumber("lndP99", row.LndP99);
                writer.WriteNumber("dropFraction", row.DropFraction);
                writer.WriteNumber("lateFraction", row.LateFraction);
                writer.WriteNumber("goodput", row.Goodput);
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(stream.ToArray());
    }

    private static Figure Chart(DeadlineExperimentResult result)
    {
        var levels = result.Rows.Select(r => r.LoadLevel).Distinct().Order().ToArray();
        var algorithms = result.Rows.Select(r => r.Configuration).Distinct().ToList();
        var legend = algorithms.Select((name, i) => (name, SeriesPalette.Of(i))).ToList();
        FigurePanel Panel(string name, Func<DeadlineExperimentRow, double> value) => new(
            name,
            [.. algorithms.Select((algorithm, i) => new ChartSeries(
                algorithm,
                SeriesPalette.Of(i),
                levels,
                // A level a stopped experiment did not reach under this configuration has no point (NaN leaves a gap).
                [.. levels.Select(level => result.Rows.FirstOrDefault(r => r.LoadLevel == level && r.Configuration == algorithm) is { } row ? Math.Max(0.01, value(row)) : double.NaN)]))],
            "no completed requests");
        return new Figure(
            "deadline-lnd",
            "Latency normalised by deadline (LND = latency / deadline; 1 = just in time)",
            result.ClosedLoop ? "clients" : "speed-up",
            "LND (latency / deadline, log scale)",
            AxisScale.Logarithmic,
            [Panel("mean", r => r.LndMean), Panel("p95", r => r.LndP95), Panel("p99", r => r.LndP99)],
            legend,
            levels.Max() * 1.05,
            []);
    }

    private static string Html(DeadlineExperimentResult result, string title, string figure, string? partial)
    {
        var text = new StringBuilder();
        var level = result.ClosedLoop ? "# Clients" : "Speed-up";
        text.Append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Deadline experiment</title>\n");
        text.Append("<style>body{font-family:Helvetica,Arial,sans-serif;margin:2em;max-width:1250px}table{border-collapse:collapse}")
            .Append("td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}td.best{background:#e3f4e3;font-weight:bold}td:nth-child(2),th:nth-child(2){text-align:left}</style></head><body>\n");
        text.Append(CultureInfo.InvariantCulture, $"<h1>Deadline experiment (Table 5.4)</h1>\n<p>Trace: {E(title)}. Each request's deadline is k = {result.K:0.##} times its completion time alone on the idle topology (mean {result.IsolatedMeanMs:0.0} ms, max {result.IsolatedMaxMs:0.0} ms). ");
        text.Append("LND is latency divided by deadline over completed requests; Dropped counts requests dropped with a reason or timed out; Late is the share of completed requests with LND above 1.</p>\n");
        if (partial is not null)
        {
            text.Append("<p><strong>Partial report:</strong> ").Append(E(partial)).Append(".</p>\n");
        }

        var verdict = Verdicts.DeadlineVerdict.Of(result);
        text.Append("<h2>Verdict</h2>\n<ul>\n");
        foreach (var sentence in verdict.Sentences)
        {
            text.Append("<li>").Append(E(sentence)).Append("</li>\n");
        }

        text.Append("</ul>\n<p>Goodput is the share of offered requests completed within their deadline. Best values per load level are highlighted.</p>\n");
        text.Append(CultureInfo.InvariantCulture, $"<table><tr><th>{level}</th><th>Algorithm</th><th>LND (Mean)</th><th>LND (p95)</th><th>LND (p99)</th><th>Dropped</th><th>Late</th><th>Goodput</th><th>Offered</th></tr>\n");
        foreach (var group in result.Rows.GroupBy(static r => r.LoadLevel))
        {
            var rows = group.ToList();
            var first = true;
            foreach (var row in rows)
            {
                string Cell(Func<DeadlineExperimentRow, double> value, string text, bool lowest)
                {
                    var values = rows.Select(value).Where(double.IsFinite).ToList();
                    var best = values.Count > 1 && double.IsFinite(value(row)) && value(row) == (lowest ? values.Min() : values.Max()) && values.Min() != values.Max();
                    return (best ? "<td class=\"best\">" : "<td>") + (double.IsFinite(value(row)) ? text : "–") + "</td>";
                }

                text.Append("<tr><td>").Append(first ? row.LoadLevel.ToString("0.##", CultureInfo.InvariantCulture) : string.Empty).Append("</td><td>").Append(E(row.Configuration)).Append("</td>")
                    .Append(Cell(static r => r.LndMean, row.LndMean.ToString("0.00", CultureInfo.InvariantCulture), lowest: true))
                    .Append(Cell(static r => r.LndP95, row.LndP95.ToString("0.00", CultureInfo.InvariantCulture), lowest: true))
                    .Append(Cell(static r => r.LndP99, row.LndP99.ToString("0.00", CultureInfo.InvariantCulture), lowest: true))
                    .Append(Cell(static r => r.DropFraction, row.DropFraction.ToString("P1", CultureInfo.InvariantCulture), lowest: true))
                    .Append(Cell(static r => r.LateFraction, row.LateFraction.ToString("P1", CultureInfo.InvariantCulture), lowest: true))
                    .Append(Cell(static r => r.Goodput, row.Goodput.ToString("P1", CultureInfo.InvariantCulture), lowest: false))
                    .Append("<td>").Append(row.Offered.ToString("N0", CultureInfo.InvariantCulture)).Append("</td></tr>\n");
                first = false;
            }
        }

        text.Append("</table>\n<h2>LND per load level</h2>\n").Append(figure);
        text.Append("<p>Files beside this page: deadline.csv, deadline.json, deadline-lnd.png.</p>\n</body></html>\n");
        return text.ToString();
    }

    private static string E(string value) => WebUtility.HtmlEncode(value);
}
