// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology.Tests;

/// <summary>Ctrl-C on the deadline experiment: it stops and writes a partial report with the runs that finished.</summary>
[Collection(CliRuns.Name)]
public sealed class DeadlineStopTests
{
    [Fact(Skip = "Hangs where the test host inherits an ignored SIGINT (a background CI shell); needs a stop signal the child cannot ignore")]
    public async Task Deadline_Sigint_WritesAPartialReportWithAVerdict()
    {
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 20_000, perSecond: 200, bsMs: 2);
        using var cli = Cli.Start(["deadline", "-t", trace, "--repeat", "1", "--loads", "2,4", "-o", folder.File("report")]);

        // Piped progress prints a line per tenth of the work; at 30% the isolation run and at least one row are done.
        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(300));
        while (!cli.Out.Contains("deadline: 30%", StringComparison.Ordinal))
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100), TimeProvider.System, limit.Token);
        }

        cli.Signal("INT");
        var code = await cli.WaitAsync(TimeSpan.FromSeconds(120));

        Assert.Equal(130, code);
        Assert.Contains("stopped by Ctrl-C (SIGINT) after", cli.Err, StringComparison.Ordinal);
        var html = File.ReadAllText(Path.Combine(folder.File("report"), "deadline.html"));
        Assert.Contains("Partial report:", html, StringComparison.Ordinal);
        Assert.Contains("<th>Goodput</th>", html, StringComparison.Ordinal);
        Assert.StartsWith("winner: ", InProcess.LastLine(cli.Out), StringComparison.Ordinal);
    }
}
