// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology.Tests;

/// <summary>A live scenario run measures its host and its report agrees with the console on whether a winner may be named.</summary>
[Collection(CliRuns.Name)]
public sealed class LiveHostTests
{
    private const string HostBottleneck = "No winner: the host itself was the bottleneck.";

    [Fact]
    public async Task LiveRun_MeasuresTheHost_AndTheReportFollowsTheMeasurement()
    {
        using var folder = new TempFolder();
        var scenario = folder.Write("tiny.json", Scenarios.Tiny(duration: 3, ratePerSecond: 20));

        // Whether this machine is saturated is not the test's to choose: both outcomes are checked for agreement.
        var (code, output, errors) = await Cli.RunAsync(["-s", scenario, "--runner", "live", "-o", folder.File("report")], TimeSpan.FromSeconds(300));

        Assert.True(code == 0, errors);
        var measured = Assert.Single(output.Split('\n'), l => l.StartsWith("Host during the live runs: CPU ", StringComparison.Ordinal));
        Assert.Contains("median timer lateness", measured, StringComparison.Ordinal);
        var html = File.ReadAllText(Path.Combine(folder.File("report"), "report.html"));
        var limited = output.Contains(HostBottleneck, StringComparison.Ordinal);
        Assert.Equal(limited, html.Contains("<p>" + HostBottleneck, StringComparison.Ordinal));
        Assert.Equal(!limited, html.Contains("<ul class=\"verdicts\">", StringComparison.Ordinal));
    }
}
