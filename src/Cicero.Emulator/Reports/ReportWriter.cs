// SPDX-License-Identifier: Apache-2.0

using System.Text;
using System.Text.Json;
using Cicero.Emulator.Reports.Charts;
using Cicero.Emulator.Reports.Csv;
using Cicero.Emulator.Reports.Json;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Reports;

/// <summary>
/// Writes the report of one scenario's runs (one <see cref="TopologyRunResult"/> per configuration) into a folder:
/// CSV tables, <c>results.json</c>, a self-contained <c>report.html</c> (the charts inline as PNG data), and the
/// same charts as PNG files (ScottPlot). The layout is described in docs/emulator.md.
/// </summary>
/// <remarks>
/// Every file depends only on the runs and the options, never on the host or the clock, so the same runs give the
/// same bytes. Existing files of the same names are replaced; other files in the folder are left alone.
/// </remarks>
public static class ReportWriter
{
    /// <summary>The name of the JSON file.</summary>
    public const string JsonFileName = "results.json";

    /// <summary>The name of the HTML file.</summary>
    public const string HtmlFileName = HtmlReport.FileName;

    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Writes the report.</summary>
    /// <param name="runs">The runs, one per configuration, in the order to show them (left to right in the charts).</param>
    /// <param name="directory">The folder; created if missing.</param>
    /// <param name="options">What else to include; defaults when <see langword="null"/>.</param>
    /// <param name="cancellationToken">
    /// Stops drawing figures (the slow part, one per tier with rate control); the tables, <c>results.json</c> and a
    /// <c>report.html</c> marked partial are still written, and <see cref="ReportFiles.FiguresNotDrawn"/> says how many
    /// figures are missing. None by default.
    /// </param>
    /// <returns>The files written.</returns>
    /// <exception cref="ArgumentException"><paramref name="runs"/> is empty or mixes scenarios.</exception>
    public static ReportFiles Write(IReadOnlyList<TopologyRunResult> runs, string directory, ReportOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(runs);
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        if (runs.Count == 0)
        {
            throw new ArgumentException("A report needs at least one run.", nameof(runs));
        }

        foreach (var run in runs)
        {
            if (run.Scenario != runs[0].Scenario)
            {
                throw new ArgumentException($"A report covers one scenario; got '{runs[0].Scenario}' and '{run.Scenario}'.", nameof(runs));
            }
        }

        options ??= new ReportOptions();
        var folder = Path.GetFullPath(directory);
        Directory.CreateDirectory(folder);

        var csv = new List<string>();
        foreach (var (name, table) in CsvReport.Build(runs))
        {
            csv.Add(WriteText(folder, name, table.ToString()));
        }

        var document = new ReportDocument { Scenario = runs[0].Scenario, Definition = options.Scenario, Runs = runs, Partial = PartialNote(runs, options) };
        var json = WriteText(folder, JsonFileName, JsonSerializer.Serialize(document, ReportJsonContext.Default.ReportDocument));

        var figures = new List<(Figure, byte[])>();
        var png = new List<string>();
        var planned = ReportFigures.Build(runs);
        foreach (var figure in planned)
        {
            if (cancellationToken.IsCancellationRequested)
            {
                break;
            }

            var bytes = FigureRenderer.RenderPng(figure);
            figures.Add((figure, bytes));
            if (options.WritePng)
            {
                var path = Path.Combine(folder, figure.Id + ".png");
                File.WriteAllBytes(path, bytes);
                png.Add(path);
            }
        }

        var names = new List<string>();
        names.AddRange(csv.Select(Path.GetFileName)!);
        names.Add(JsonFileName);
        names.AddRange(png.Select(Path.GetFileName)!);
        var notDrawn = planned.Count - figures.Count;
        if (notDrawn > 0)
        {
            options = WithPartial(options, $"report writing stopped with {notDrawn} of {planned.Count} figures not drawn", runs);
        }

        var html = WriteText(folder, HtmlFileName, HtmlReport.Build(runs, figures, options, names));
        return new ReportFiles { Directory = folder, Html = html, Json = json, Csv = csv, Png = png, FiguresNotDrawn = notDrawn };
    }

    /// <summary>Gets why the report is partial: the options' note, or the configurations whose runs were stopped.</summary>
    internal static string? PartialNote(IReadOnlyList<TopologyRunResult> runs, ReportOptions options)
    {
        var stopped = runs.Where(static r => r.Interrupted).Select(static r => r.Configuration).ToList();
        return options.Partial ?? (stopped.Count == 0 ? null : $"stopped early under {string.Join(", ", stopped)}");
    }

    private static ReportOptions WithPartial(ReportOptions options, string note, IReadOnlyList<TopologyRunResult> runs) => new()
    {
        Scenario = options.Scenario,
        WritePng = options.WritePng,
        Runner = options.Runner,
        Partial = PartialNote(runs, options) is { } earlier ? earlier + "; " + note : note,
        RepeatedRunsVerdict = options.RepeatedRunsVerdict,
        HostBottleneck = options.HostBottleneck,
    };

    internal static string WriteText(string folder, string name, string text)
    {
        var path = Path.Combine(folder, name);
        File.WriteAllText(path, text, Utf8);
        return path;
    }
}
