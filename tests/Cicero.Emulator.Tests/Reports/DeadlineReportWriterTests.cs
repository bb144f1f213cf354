// SPDX-License-Identifier: Apache-2.0

using System.Text.Json;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Tests.Traces;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.Emulator.Tests.Reports;

public sealed class DeadlineReportWriterTests : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "cicero-deadline-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public void Write_SmallExperiment_TableChartCsvAndJsonAgreeWithTheResult()
    {
        var plan = TraceReplayPlanner.Create(SimulatedReplayTests.Generate(150, seed: 5));
        var result = DeadlineExperiment.Run(plan, new DeadlineExperimentOptions { LoadLevels = [1, 3] });

        var files = DeadlineReportWriter.Write(result, _directory, "generated <150>");

        var csv = File.ReadAllLines(Assert.Single(files.Csv));
        Assert.Equal(1 + result.Rows.Count, csv.Length);
        Assert.StartsWith("speed_up,algorithm,offered,completed", csv[0], StringComparison.Ordinal);
        using var json = JsonDocument.Parse(File.ReadAllText(files.Json));
        var rows = json.RootElement.GetProperty("rows");
        Assert.Equal(result.Rows.Count, rows.GetArrayLength());
        Assert.Equal(result.Rows[^1].LndP99, rows[result.Rows.Count - 1].GetProperty("lndP99").GetDouble());
        var html = File.ReadAllText(files.Html);
        Assert.Contains("generated &lt;150&gt;", html, StringComparison.Ordinal);
        Assert.Equal(result.Rows.Count, html.Split("<tr><td>").Length - 1);
        Assert.Contains("src=\"data:image/png;base64,", html, StringComparison.Ordinal);
        using var png = SkiaSharp.SKBitmap.Decode(File.ReadAllBytes(Assert.Single(files.Png)));
        Assert.True(png.Width >= 2 * 1200, $"high-DPI width, was {png.Width}");
    }

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }
}
