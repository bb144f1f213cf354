// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology.Tests;

/// <summary>Ctrl-C (or SIGTERM) on the deadline experiment: it stops and writes a partial report with the runs that finished.</summary>
[Collection(CliRuns.Name)]
public sealed class DeadlineStopTests
{
    // SIGTERM, handled exactly like Ctrl-C (StopSignal): a test host started as a background job inherits SIGINT as
    // ignored and passes that on, so SIGINT cannot be relied on to reach the child, but SIGTERM keeps its default.
    [Fact(Skip = "Waited 300 s for the piped 'deadline: 30%' line in a clean-clone .ci/run (2026-11-29) though it passed in 6 s in a worktree: the piped progress line is not reliably printed; re-enable once the wait keys on output that is.")]
    public async Task Deadline_Sigterm_WritesAPartialReportWithAVerdict()
    {
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 20_000, perSecond: 200, bsMs: 2);
        using var cli = Cli.Start(["deadline", "-t", trace, "--repeat", "1", "--loads", "2,4", "-o", folder.File("report")]);

        // Piped progress prints a line per tenth of the work; at 30% the isolation run and at least one row are done.
        await cli.OutputAsync("deadline: 30%", TimeSpan.FromSeconds(300));

        cli.Signal("TERM");
        var code = await cli.WaitAsync(TimeSpan.FromSeconds(120));

        Assert.Equal(130, code);
        Assert.Contains("stopped by SIGTERM after", cli.Err, StringComparison.Ordinal);
        var html = File.ReadAllText(Path.Combine(folder.File("report"), "deadline.html"));
        Assert.Contains("Partial report:", html, StringComparison.Ordinal);
        Assert.Contains("<th>Goodput</th>", html, StringComparison.Ordinal);
        Assert.StartsWith("winner: ", InProcess.LastLine(cli.Out), StringComparison.Ordinal);
    }
}
