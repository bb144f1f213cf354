// SPDX-License-Identifier: Apache-2.0

using System.Text.Json;

namespace Cicero.StorageTopology.Tests;

/// <summary>Ctrl-C (SIGINT) and SIGTERM stop a run within seconds and leave a report marked partial (issue 20).</summary>
[Collection(CliRuns.Name)]
public sealed class StopTests
{
    [Fact]
    public async Task LiveRun_SigintAfterFiveSeconds_ExitsWithinFiveSecondsWithAPartialReportThatConserves()
    {
        using var folder = new TempFolder();
        var scenario = folder.Write("tiny.json", Scenarios.Tiny(duration: 120, ratePerSecond: 40, serviceMs: 200));
        using var cli = Cli.Start(["-s", scenario, "--runner", "live", "-o", folder.File("report")]);
        await cli.FirstLineAsync(TimeSpan.FromSeconds(60));
        await Task.Delay(TimeSpan.FromSeconds(5), TimeProvider.System);

        var signalled = TimeProvider.System.GetTimestamp();
        cli.Signal("INT");
        var code = await cli.WaitAsync(TimeSpan.FromSeconds(60));
        var took = TimeProvider.System.GetElapsedTime(signalled);

        Assert.True(took < TimeSpan.FromSeconds(5), $"exited {took.TotalSeconds:F1} s after SIGINT; out: {cli.Out} err: {cli.Err}");
        Assert.Equal(130, code);
        AssertPartialReport(folder.File("report"), cli.Err, "Ctrl-C (SIGINT)");
    }

    [Fact]
    public async Task SimulatedRun_Sigterm_StopsAndWritesAPartialReport()
    {
        using var folder = new TempFolder();

        // A simulated week at 100/s: hours of work unless stopped.
        var scenario = folder.Write("tiny.json", Scenarios.Tiny(duration: 600_000, ratePerSecond: 100));
        using var cli = Cli.Start(["-s", scenario, "-o", folder.File("report")]);
        await cli.FirstLineAsync(TimeSpan.FromSeconds(60));
        await Task.Delay(TimeSpan.FromSeconds(2), TimeProvider.System);

        var signalled = TimeProvider.System.GetTimestamp();
        cli.Signal("TERM");
        var code = await cli.WaitAsync(TimeSpan.FromSeconds(60));
        var took = TimeProvider.System.GetElapsedTime(signalled);

        Assert.True(took < TimeSpan.FromSeconds(5), $"exited {took.TotalSeconds:F1} s after SIGTERM; err: {cli.Err}");
        Assert.Equal(130, code);
        AssertPartialReport(folder.File("report"), cli.Err, "SIGTERM");
    }

    private static void AssertPartialReport(string folder, string errors, string signal)
    {
        Assert.Contains("The report is partial.", errors, StringComparison.Ordinal);
        var html = File.ReadAllText(Path.Combine(folder, "report.html"));
        Assert.Contains("Partial report:</strong> stopped by " + signal, html, StringComparison.Ordinal);
        Assert.Contains("not run: rc", html, StringComparison.Ordinal);

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "results.json")));
        var run = Assert.Single(json.RootElement.GetProperty("runs").EnumerateArray());
        Assert.True(run.GetProperty("interrupted").GetBoolean());
        foreach (var workflow in run.GetProperty("workflows").EnumerateArray())
        {
            long Count(string name) => workflow.GetProperty(name).GetInt64();
            Assert.True(Count("offered") > 0);
            Assert.Equal(Count("offered"), Count("completed") + Count("dropped") + Count("failed"));
        }
    }
}
