// SPDX-License-Identifier: Apache-2.0

using System.Text.Json;
using System.Text.RegularExpressions;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Reports;

/// <summary>Runs a small two-configuration scenario once and writes its report for all the tests to read.</summary>
public sealed class ReportFixture : IDisposable
{
    public ReportFixture()
    {
        Scenario = TestScenarios.Tiny(
            configurations: """[{ "name": "baseline", "rateControl": false, "dropPolicy": "never" }, { "name": "rc", "rateControl": true, "deadlineMs": 200 }]""",
            duration: 6,
            warmUp: 1);
        Runs = TopologySimulation.RunAll(Scenario);
        Directory = Path.Combine(Path.GetTempPath(), "cicero-report-" + Guid.NewGuid().ToString("N"));
        Files = ReportWriter.Write(Runs, Directory, new ReportOptions { Scenario = Scenario });
    }

    public ScenarioSpec Scenario { get; }

    public IReadOnlyList<TopologyRunResult> Runs { get; }

    public string Directory { get; }

    public ReportFiles Files { get; }

    public void Dispose() => System.IO.Directory.Delete(Directory, recursive: true);
}

public sealed partial class ReportWriterTests(ReportFixture fixture) : IClassFixture<ReportFixture>
{
    private const int FixedFigures = 2; // latency and throughput; then one per tier with rate samples

    [Fact]
    public void Write_SmallScenario_WritesEveryFile()
    {
        var names = System.IO.Directory.GetFiles(fixture.Directory).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList();

        Assert.Contains("report.html", names);
        Assert.Contains("results.json", names);
        foreach (var csv in new[] { "summary.csv", "timeseries.csv", "rates.csv", "utilization.csv", "runs.csv" })
        {
            Assert.Contains(csv, names);
        }

        Assert.Contains("latency.png", names);
        Assert.Contains("throughput.png", names);
        Assert.Contains("sigma-fe.png", names);
        Assert.Equal(fixture.Files.Png.Count + fixture.Files.Csv.Count + 2, names.Count);
        Assert.Equal(FixedFigures + Tiers(), fixture.Files.Png.Count);
    }

    [Fact]
    public void Csv_RowCounts_MatchTheResults()
    {
        Assert.Equal(fixture.Runs.Sum(r => r.Workflows.Count), DataRows("summary.csv"));
        Assert.Equal(fixture.Runs.Sum(r => r.TimeSeries.Count), DataRows("timeseries.csv"));
        Assert.Equal(fixture.Runs.Sum(r => r.Rates.Count), DataRows("rates.csv"));
        Assert.Equal(fixture.Runs.Sum(r => r.Resources.Count), DataRows("utilization.csv"));
        Assert.Equal(fixture.Runs.Count, DataRows("runs.csv"));
        Assert.True(DataRows("rates.csv") > 0, "the rc run samples σ");
    }

    [Fact]
    public void Csv_EveryRow_HasTheHeadersColumnCount()
    {
        foreach (var file in fixture.Files.Csv)
        {
            var lines = File.ReadAllLines(file);
            var columns = lines[0].Split(',').Length;
            Assert.All(lines, line => Assert.Equal(columns, line.Split(',').Length));
        }
    }

    [Fact]
    public void Csv_Summary_CountsAddUpPerRow()
    {
        var lines = File.ReadAllLines(Path.Combine(fixture.Directory, "summary.csv"));
        var header = lines[0].Split(',').ToList();
        int Column(string name) => header.IndexOf(name);
        foreach (var line in lines.Skip(1))
        {
            var fields = line.Split(',');
            long Value(string name) => long.Parse(fields[Column(name)], System.Globalization.CultureInfo.InvariantCulture);
            Assert.Equal(Value("offered"), Value("completed") + Value("dropped") + Value("failed"));
            var run = fixture.Runs.Single(r => r.Configuration == fields[0]);
            Assert.Equal(run[fields[1]].Completed, Value("completed"));
        }
    }

    [Fact]
    public void Json_Parses_AndHoldsEveryRun()
    {
        using var document = JsonDocument.Parse(File.ReadAllText(fixture.Files.Json));
        var root = document.RootElement;

        Assert.Equal("tiny", root.GetProperty("scenario").GetString());
        Assert.Equal(7, root.GetProperty("definition").GetProperty("seed").GetInt32());
        var runs = root.GetProperty("runs");
        Assert.Equal(fixture.Runs.Count, runs.GetArrayLength());
        for (var i = 0; i < fixture.Runs.Count; i++)
        {
            var run = runs[i];
            Assert.Equal(fixture.Runs[i].Configuration, run.GetProperty("configuration").GetString());
            Assert.Equal(fixture.Runs[i]["W"].Offered, run.GetProperty("workflows")[0].GetProperty("offered").GetInt64());
            Assert.Equal(fixture.Runs[i].TimeSeries.Count, run.GetProperty("timeSeries").GetArrayLength());
        }
    }

    [Fact]
    public void Html_HasOneInlinePngPerFigure_AndNoExternalReference()
    {
        var html = File.ReadAllText(fixture.Files.Html);

        // Every figure inline, byte for byte the PNG file beside the report.
        var images = InlinePng().Matches(html);
        Assert.Equal(fixture.Files.Png.Count, images.Count);
        Assert.Equal(
            fixture.Files.Png.Select(f => Convert.ToBase64String(File.ReadAllBytes(f))).Order(StringComparer.Ordinal),
            images.Select(m => m.Groups[1].Value).Order(StringComparer.Ordinal));
        var outside = InlinePng().Replace(html, string.Empty);
        foreach (var forbidden in new[] { "http:", "https:", "<script", "<link", "src=", "href=", "url(", "@import" })
        {
            Assert.DoesNotContain(forbidden, outside, StringComparison.OrdinalIgnoreCase);
        }

        foreach (var run in fixture.Runs)
        {
            Assert.Contains(run.Configuration, html, StringComparison.Ordinal);
        }

        Assert.StartsWith("<!DOCTYPE html>", html, StringComparison.Ordinal);
        Assert.EndsWith("</html>\n", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Png_Files_AreHighDpiAndDrawn()
    {
        foreach (var file in fixture.Files.Png)
        {
            using var bitmap = SkiaSharp.SKBitmap.Decode(File.ReadAllBytes(file));

            Assert.NotNull(bitmap);
            Assert.True(bitmap.Width >= 2 * 1200, $"{file}: {bitmap.Width} px wide, expected twice the 1200 logical pixels");

            // Ink in every panel row: a plot that clears its neighbours' pixels (ScottPlot clears its canvas) would leave white.
            var inked = 0;
            for (var y = 0; y < bitmap.Height; y += 4)
            {
                for (var x = 0; x < bitmap.Width; x += 4)
                {
                    var pixel = bitmap.GetPixel(x, y);
                    inked += pixel.Red < 200 || pixel.Green < 200 || pixel.Blue < 200 ? 1 : 0;
                }
            }

            Assert.True(inked > bitmap.Width * bitmap.Height / 16 / 100, $"{file}: {inked} dark samples; the figure is (nearly) blank");
        }
    }

    [Fact]
    public void Html_OpensWithAVerdict_AndEveryLatencyHeaderHasItsUnit()
    {
        var html = File.ReadAllText(fixture.Files.Html);

        var verdict = html.IndexOf("<h2>Verdict</h2>", StringComparison.Ordinal);
        Assert.True(verdict > 0 && verdict < html.IndexOf("<h2>Outcomes", StringComparison.Ordinal), "the verdict comes before the detail");
        Assert.Contains("<p>" + System.Net.WebUtility.HtmlEncode(Cicero.Emulator.Reports.Verdicts.ReportVerdict.Of(fixture.Runs).Summary[0]) + "</p>", html, StringComparison.Ordinal);
        foreach (var header in new[] { "p50 (ms)", "p99 (ms)", "max (ms)", "throughput (requests/s)", "completed (% of offered)" })
        {
            Assert.Contains("<th>" + header + "</th>", html, StringComparison.Ordinal);
        }

        Assert.DoesNotContain("Partial report", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Html_HostBottleneck_NamesNoBestConfiguration()
    {
        var folder = Path.Combine(Path.GetTempPath(), "cicero-report-" + Guid.NewGuid().ToString("N"));
        try
        {
            var files = ReportWriter.Write(fixture.Runs, folder, new ReportOptions { Scenario = fixture.Scenario, Runner = "live", WritePng = false, HostBottleneck = "the CPUs were 97% busy" });
            var html = File.ReadAllText(files.Html);
            var unsaturated = File.ReadAllText(fixture.Files.Html);
            var best = System.Net.WebUtility.HtmlEncode(Cicero.Emulator.Reports.Verdicts.ReportVerdict.Of(fixture.Runs).Summary[0]);

            Assert.Contains("<p>No winner: the host itself was the bottleneck. the CPUs were 97% busy</p>", html, StringComparison.Ordinal);
            Assert.DoesNotContain(best, html, StringComparison.Ordinal);
            Assert.Contains(best, unsaturated, StringComparison.Ordinal);
            Assert.DoesNotContain("No winner: the host", unsaturated, StringComparison.Ordinal);
        }
        finally
        {
            System.IO.Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void Write_SameRunsTwice_GivesIdenticalFiles()
    {
        var again = Path.Combine(Path.GetTempPath(), "cicero-report-" + Guid.NewGuid().ToString("N"));
        try
        {
            var files = ReportWriter.Write(fixture.Runs, again, new ReportOptions { Scenario = fixture.Scenario });

            foreach (var path in System.IO.Directory.GetFiles(fixture.Directory))
            {
                Assert.Equal(File.ReadAllBytes(path), File.ReadAllBytes(Path.Combine(files.Directory, Path.GetFileName(path))));
            }
        }
        finally
        {
            System.IO.Directory.Delete(again, recursive: true);
        }
    }

    [Fact]
    public void Write_InvalidRuns_Throw()
    {
        Assert.Throws<ArgumentException>(() => ReportWriter.Write([], fixture.Directory));
        var other = new TopologyRunResult
        {
            Scenario = "other",
            Configuration = "x",
            Workflows = [],
            Resources = [],
            TimeSeries = [],
            Rates = [],
        };
        Assert.Throws<ArgumentException>(() => ReportWriter.Write([fixture.Runs[0], other], fixture.Directory));
    }

    [GeneratedRegex("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"")]
    private static partial Regex InlinePng();

    private int Tiers() => fixture.Runs.SelectMany(r => r.Rates).Select(r => r.Service).Distinct().Count();

    private int DataRows(string name) => File.ReadAllLines(Path.Combine(fixture.Directory, name)).Length - 1;
}
