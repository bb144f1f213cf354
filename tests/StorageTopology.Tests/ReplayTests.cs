// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;

namespace Cicero.StorageTopology.Tests;

/// <summary>The replay command on traces and scenarios made by the tests: configurations, custom policies, limits, output paths.</summary>
[Collection(CliRuns.Name)]
public sealed class ReplayTests
{
    [Fact]
    public void SyntheticTraceAndScenario_WithAKnownWinner_NamesIt()
    {
        // The scenario's "hurried" configuration gives every request 0.5 ms, less than one disk read: it completes nothing,
        // the baseline everything, on every seed. Topology, trace and configurations are all made here.
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 300, perSecond: 50, bsMs: 2);
        var scenario = folder.Write("small.json", SmallTopology("""{ "name": "hurried", "rateControl": false, "dropPolicy": "never", "deadlineMs": 0.5 }"""));

        var (code, output, errors) = InProcess.Run("replay", "-t", trace, "-s", scenario, "-c", "baseline,hurried", "--seeds", "2", "-o", folder.File("report"));

        Assert.True(code == 0, errors);
        Assert.Equal("winner: baseline", InProcess.LastLine(output));
        Assert.Contains("light.get: baseline wins beyond the spread", output, StringComparison.Ordinal);
        Assert.Contains("hurried 0% completed, no p99 (nothing completed)", output, StringComparison.Ordinal);
        Assert.Contains("Verdict over repeated runs", File.ReadAllText(folder.File("report/report.html")), StringComparison.Ordinal);
    }

    [Fact]
    public void ScenarioTopology_AndCapacity_AreTheOnesRun()
    {
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 200, perSecond: 50, bsMs: 2);
        var scenario = folder.Write("small.json", SmallTopology("""{ "name": "rc" }"""));

        var (code, output, errors) = InProcess.Run("replay", "-t", trace, "-s", scenario, "-c", "rc,baseline", "--capacity", "0.5", "--seeds", "1", "-o", folder.File("report"));

        Assert.True(code == 0, errors);
        var json = File.ReadAllText(folder.File("report/results.json"));
        Assert.Contains("\"instances\": 3", json, StringComparison.Ordinal);
        Assert.Contains("capacity x0.5", output, StringComparison.Ordinal);
        Assert.Matches("\"name\": \"disk\",\\s*\"kind\": \"disk\",\\s*\"capacity\": 2,", json);
    }

    [Fact]
    public void SyntheticTrace_Idle_TiesWithinNoise()
    {
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 400, perSecond: 20, bsMs: 2);

        var (code, output, errors) = InProcess.Run("replay", "-t", trace, "-c", "baseline,rc,rc+drr,edf+rc", "--seeds", "2", "-o", folder.File("report"));

        Assert.True(code == 0, errors);
        Assert.Equal("winner: none (tie within noise)", InProcess.LastLine(output));
    }

    [Fact]
    public void WorkflowThatNeverCompletes_GivesAFullReportMarkingIt()
    {
        // Every block read takes 60 s, longer than any RPC timeout: nothing completes under any configuration.
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 40, perSecond: 20, bsMs: 60_000);

        var (code, output, errors) = InProcess.Run("replay", "-t", trace, "--seeds", "1", "-o", folder.File("report"));

        Assert.True(code == 0, errors);
        Assert.Contains("no p99 (nothing completed)", output, StringComparison.Ordinal);
        Assert.Equal("winner: none (tie within noise)", InProcess.LastLine(output));
        Assert.True(File.Exists(folder.File("report/report.html")));
    }

    [Fact]
    public void CustomPolicyAssembly_RunsInReplay()
    {
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 300, perSecond: 50, bsMs: 2);

        var (code, output, errors) = InProcess.Run(
            "replay", "-t", trace, "--policy-assembly", InProcess.PluginPath, "-c", "baseline,gold-first,headroom,gold-first+headroom", "--seeds", "1", "-o", folder.File("report"));

        Assert.True(code == 0, errors);
        Assert.Contains("gold-first+headroom seed", output, StringComparison.Ordinal);
        Assert.StartsWith("winner: ", InProcess.LastLine(output), StringComparison.Ordinal);
    }

    [Fact]
    public void CustomPolicyAssembly_RunsInAScenarioFromTheCommandLine()
    {
        using var folder = new TempFolder();
        var scenario = folder.Write("custom.json", Scenarios.Tiny(duration: 3).Replace(
            """{ "name": "rc" }""", """{ "name": "gold", "scheduler": "gold-first", "rateLimitPolicy": "headroom" }""", StringComparison.Ordinal));

        var without = InProcess.Run("-s", scenario, "-o", folder.File("without"));
        var with = InProcess.Run("-s", scenario, "--policy-assembly", InProcess.PluginPath, "-o", folder.File("report"));

        Assert.Equal(2, without.ExitCode);
        Assert.Contains("gold-first", without.Err, StringComparison.Ordinal);
        Assert.True(with.ExitCode == 0, with.Err);
        Assert.Contains("gold", File.ReadAllText(folder.File("report/summary.csv")), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new[] { "--policy-assembly", "/nonexistent/plugin.dll" }, "cannot load it")]
    [InlineData(new[] { "-c", "rc,nope" }, "'nope' is not rc, a scheduler")]
    [InlineData(new[] { "-c", "rc,rc" }, "'rc' is named twice")]
    [InlineData(new[] { "--speed-up", "1e-9" }, "more than the limit of one week")]
    [InlineData(new[] { "--clients", "100001" }, "--clients: at most 100,000")]
    [InlineData(new[] { "--clients", "5", "--speed-up", "2" }, "give one of them")]
    public void BadOptions_AreRefusedBeforeAnyRun(string[] options, string message)
    {
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 50, perSecond: 10, bsMs: 2);

        var (code, output, errors) = InProcess.Run(["replay", "-t", trace, "-o", folder.File("report"), .. options]);

        Assert.Equal(1, code);
        Assert.Contains(message, errors, StringComparison.Ordinal);
        Assert.DoesNotContain("seed", output, StringComparison.Ordinal);
        Assert.False(File.Exists(folder.File("report/report.html")));
    }

    [Theory]
    [InlineData("--permits", "2000000000", "--permits between 1 and 1,000,000")]
    [InlineData("--k", "1e300", "--k a number in (0, 1000000]")]
    [InlineData("--loads", "1e-9", "more than the limit of one week")]
    [InlineData("--repeat", "1000000", "more than the experiment's limit of 2,000,000 requests")]
    public void Deadline_ExtremeOptions_AreValidationErrors(string option, string value, string message)
    {
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 50, perSecond: 10, bsMs: 2);

        var (code, _, errors) = InProcess.Run("deadline", "-t", trace, "-o", folder.File("report"), option, value);

        Assert.Equal(1, code);
        Assert.Contains(message, errors, StringComparison.Ordinal);
    }

    [Fact]
    public void OutputThatIsASymlinkOrFifo_IsRefusedAndLeftAsItWas()
    {
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 50, perSecond: 10, bsMs: 2);
        var target = folder.Write("precious.txt", "keep me");
        var link = folder.File("link.csv");
        File.CreateSymbolicLink(link, target);
        var fifo = folder.File("fifo.csv");
        using (var mkfifo = Process.Start("mkfifo", [fifo]))
        {
            mkfifo.WaitForExit();
        }

        // The output is checked before the input is read, so any input shows the refusal.
        foreach (var output in (string[])[link, fifo])
        {
            var (code, _, errors) = InProcess.Run("import", "-f", "meta-kv", "-i", trace, "-o", output);
            Assert.Equal(5, code);
            Assert.Contains("refusing to replace it", errors, StringComparison.Ordinal);
        }

        var linkedFolder = folder.File("linked-report");
        Directory.CreateSymbolicLink(linkedFolder, folder.Path);
        var replay = InProcess.Run("replay", "-t", trace, "--seeds", "1", "-o", linkedFolder);
        var fifoFolder = InProcess.Run("replay", "-t", trace, "--seeds", "1", "-o", fifo);

        Assert.Equal(5, replay.ExitCode);
        Assert.Contains("a symbolic link, not a directory", replay.Err, StringComparison.Ordinal);
        Assert.Equal(5, fifoFolder.ExitCode);
        Assert.Contains("a FIFO, not a directory", fifoFolder.Err, StringComparison.Ordinal);
        Assert.Equal("keep me", File.ReadAllText(target));
        Assert.Equal(target, new FileInfo(link).LinkTarget);
        Assert.True(File.Exists(fifo));
        Assert.False(File.Exists(folder.File("report.html")));
    }

    [RootFact]
    public void OutputThatIsADevice_IsRefusedAndLeftAsItWas()
    {
        // Device nodes this test makes in its own folder (the null device's numbers), never a real /dev entry.
        using var folder = new TempFolder();
        var trace = InProcess.Trace(folder, requests: 50, perSecond: 10, bsMs: 2);
        var device = folder.File("device.csv");
        var report = folder.File("report");
        Directory.CreateDirectory(report);
        var inReport = Path.Combine(report, "summary.csv");
        MakeCharacterDevice(device);
        MakeCharacterDevice(inReport);

        var import = InProcess.Run("import", "-f", "meta-kv", "-i", trace, "-o", device);
        var replayOnto = InProcess.Run("replay", "-t", trace, "--seeds", "1", "-o", device);
        var replayInto = InProcess.Run("replay", "-t", trace, "--seeds", "1", "-o", report);

        Assert.Equal(5, import.ExitCode);
        Assert.Contains("is a character device, not a regular file; refusing to replace it", import.Err, StringComparison.Ordinal);
        Assert.Equal(5, replayOnto.ExitCode);
        Assert.Contains("is a character device, not a directory", replayOnto.Err, StringComparison.Ordinal);
        Assert.Equal(5, replayInto.ExitCode);
        Assert.Contains("'summary.csv' is a character device, not a regular file", replayInto.Err, StringComparison.Ordinal);
        Assert.Equal("character special file", FileType(device));
        Assert.Equal("character special file", FileType(inReport));
        Assert.False(File.Exists(Path.Combine(report, "report.html")));
    }

    private static void MakeCharacterDevice(string path)
    {
        using var mknod = Process.Start("mknod", [path, "c", "1", "3"]);
        mknod.WaitForExit();
        Assert.Equal(0, mknod.ExitCode);
    }

    private static string FileType(string path)
    {
        using var stat = Process.Start(new ProcessStartInfo("stat", ["--format=%F", path]) { RedirectStandardOutput = true });
        var type = stat!.StandardOutput.ReadToEnd().Trim();
        stat.WaitForExit();
        return type;
    }

    /// <summary>A topology not in the repository: 1 FE, 1 Auth, 2 PS, 3 BS with 4 disks each, and the given configuration.</summary>
    private static string SmallTopology(string configuration) => $$"""
        {
          "name": "small",
          "seed": 11,
          "durationSeconds": 10,
          "services": [
            { "name": "fe", "instances": 1, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 64 }] },
            { "name": "auth", "instances": 1, "resources": [{ "name": "cpu", "kind": "compute", "capacity": 2 }] },
            { "name": "ps", "instances": 2, "resources": [{ "name": "compute", "kind": "compute", "capacity": 2 }] },
            { "name": "bs", "instances": 3, "resources": [{ "name": "disk", "kind": "disk", "capacity": 4 }] }
          ],
          "routes": [
            { "from": "fe", "to": "auth", "strategy": "random" },
            { "from": "fe", "to": "ps", "strategy": "consistent-hash" },
            { "from": "ps", "to": "bs", "strategy": "blocks", "blocksPerPartition": 16, "replication": 2 }
          ],
          "workflows": [{ "name": "W", "stages": [{ "call": "bs", "stages": [{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 1 } }] }] }],
          "workloads": [{ "workflow": "W", "kind": "poisson", "ratePerSecond": 1 }],
          "configurations": [{{configuration}}]
        }
        """;
}
