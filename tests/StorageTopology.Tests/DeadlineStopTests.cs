// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text.RegularExpressions;

namespace Cicero.StorageTopology.Tests;

/// <summary>Ctrl-C (or SIGTERM) on the deadline experiment: it stops and writes a partial report with the runs that finished.</summary>
[Collection(CliRuns.Name)]
public sealed partial class DeadlineStopTests
{
    // SIGTERM, handled exactly like Ctrl-C (StopSignal): a test host started as a background job inherits SIGINT as
    // ignored; Cli resets both to their defaults in the child, and SIGTERM is the one no shell ignores on its own.
    [Fact]
    public async Task Deadline_Sigterm_WritesAPartialReportWithAVerdict()
    {
        using var folder = new TempFolder();

        // 9 runs (isolation, then 2 load levels x 4 configurations) of 100,000 requests: about 10 s on an idle core.
        var trace = InProcess.Trace(folder, requests: 100_000, perSecond: 200, bsMs: 2);
        using var cli = Cli.Start(["deadline", "-t", trace, "--repeat", "1", "--loads", "2,4", "-o", folder.File("report")]);

        // Piped, the command prints the share of the work done each second it has grown by a tenth, so a given tenth may
        // be passed over: wait for any line at 30% or more. Past 2.7 of 9 runs' requests the isolation run and the first
        // row are done, and over two thirds of the work is left, so the signal lands while the experiment still runs.
        var line = await cli.LineAsync(static l => PercentDone(l) is >= 30 and < 100, TimeSpan.FromSeconds(600));

        cli.Signal("TERM");
        var code = await cli.WaitAsync(TimeSpan.FromSeconds(120));

        Assert.True(code == 130, $"exit {code} after '{line}'; out: {cli.Out} err: {cli.Err}");
        var stopped = StoppedAfter().Match(cli.Err);
        Assert.True(stopped.Success, cli.Err);
        Assert.InRange(int.Parse(stopped.Groups[1].Value, CultureInfo.InvariantCulture), 1, 7);
        var html = File.ReadAllText(Path.Combine(folder.File("report"), "deadline.html"));
        Assert.Contains("Partial report:</strong> stopped by SIGTERM after", html, StringComparison.Ordinal);
        Assert.Contains("<th>Goodput</th>", html, StringComparison.Ordinal);
        Assert.StartsWith("winner: ", InProcess.LastLine(cli.Out), StringComparison.Ordinal);
    }

    private static int? PercentDone(string line) =>
        ProgressLine().Match(line) is { Success: true } match ? int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture) : null;

    [GeneratedRegex(@"^deadline: (\d+)% of 9 runs' requests offered$")]
    private static partial Regex ProgressLine();

    [GeneratedRegex(@"stopped by SIGTERM after (\d+) of 8 runs")]
    private static partial Regex StoppedAfter();
}
