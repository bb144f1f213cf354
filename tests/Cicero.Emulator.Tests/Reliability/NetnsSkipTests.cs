// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// Issue 22's CI point: where network namespaces cannot be had, the namespace run skips with one clear line and does not
/// fail the build. The runs here stop at their checks, before any namespace, process or nftables rule exists.
/// </summary>
public sealed class NetnsSkipTests
{
    [UnprivilegedShellFact]
    public async Task RunScript_WithoutRoot_ExitsThreeWithTheReason()
    {
        var folder = OutputFolder();
        var (exitCode, output) = await NetnsScripts.RunAsync("run.sh", "--reuid=65534 --regid=65534 --clear-groups", "baseline", "--out", folder);

        Assert.Equal(3, exitCode);
        Assert.Contains("netns: skipped: not root", output, StringComparison.Ordinal);
        Assert.False(Directory.Exists(folder));
    }

    [UnprivilegedShellFact]
    public async Task RunScript_AsRootWithoutTheCapabilities_ExitsThreeBecauseNoNamespaceCanBeMade()
    {
        var folder = OutputFolder();
        var (exitCode, output) = await NetnsScripts.RunAsync(
            "run.sh", "--bounding-set -net_admin,-sys_admin --inh-caps=-net_admin,-sys_admin", "baseline", "--out", folder);

        Assert.Equal(3, exitCode);
        Assert.Matches("netns: skipped: (cannot create a network namespace|not root)", output);
        Assert.False(Directory.Exists(folder));
    }

    [UnprivilegedShellFact]
    public async Task CiScript_WithoutRoot_SucceedsWithOneSkippedLine()
    {
        var (exitCode, output) = await NetnsScripts.RunAsync("ci.sh", "--reuid=65534 --regid=65534 --clear-groups", OutputFolder());

        Assert.Equal(0, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("netns reliability run: skipped: not root", line, StringComparison.Ordinal);
    }

    // A folder that does not exist: a skip must stop before it writes anything.
    private static string OutputFolder() => Path.Combine(Path.GetTempPath(), "cicero-netns-skip-" + Guid.NewGuid().ToString("N"));
}
