// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Live;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Live;

/// <summary>
/// Issue 8 item 2 in the live runner: a block server's gRPC server stopped at once mid-run and started again on the same
/// port. 2 front ends read blocks replicated on all 3 block servers through a grpc-dotnet channel balanced by Cicero's
/// <c>c3</c> policy, 150 requests/s. Each read holds a disk slot for 200 ms, so about 10 calls are in flight at
/// <c>bs-1</c> when it is killed (the chance of none is about 5 in 100,000): their failure shows the kill happened.
/// </summary>
[Collection(LiveRuns.Name)]
public sealed class LiveFaultTests(Xunit.Abstractions.ITestOutputHelper output)
{
    private const int KillAt = 2;
    private const int RestartAt = 6;

    [Fact]
    public async Task Kill_BlockServer_NoRequestLost_C3RoutesAround_BackAfterRestart()
    {
        var scenario = ScenarioLoader.Parse(FormattableString.Invariant($$"""
            {
              "name": "live-kill", "seed": 3, "durationSeconds": 9, "warmUpSeconds": 0,
              "network": { "oneWayDelayMs": 0, "rpcTimeoutMs": 2000 },
              "services": [
                { "name": "fe", "instances": 2, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 256 }] },
                { "name": "bs", "instances": 3, "resources": [{ "name": "disk", "kind": "disk", "capacity": 32 }] }
              ],
              "routes": [{ "from": "fe", "to": "bs", "strategy": "blocks", "replication": 3, "replicaSelector": "c3" }],
              "workflows": [{ "name": "read", "stages": [{ "call": "bs", "stages": [{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 200 } }] }] }],
              "workloads": [{ "workflow": "read", "ratePerSecond": 150 }],
              "configurations": [{ "name": "rc" }],
              "faults": [{ "kind": "kill", "service": "bs", "instance": 1, "atSeconds": {{KillAt}}, "untilSeconds": {{RestartAt}} }]
            }
            """));

        var result = await new LiveTopologyRunner(scenario, scenario.Configurations![0]).RunAsync().WaitAsync(TimeSpan.FromMinutes(2));

        var read = result["read"];
        var seconds = result.TimeSeries.Where(s => s.Workflow == "read").ToDictionary(s => s.Second);
        foreach (var (second, bin) in seconds.OrderBy(p => p.Key))
        {
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{second}: offered {bin.Offered}, completed {bin.Completed}, dropped {bin.Dropped}, failed {bin.Failed}"));
        }

        output.WriteLine($"failed by reason: {string.Join(", ", read.FailedByReason.Select(p => $"{p.Key} {p.Value}"))}");

        // Nothing lost (the runner also checks this), and the kill was felt: calls in flight to bs-1 failed.
        Assert.Equal(read.Offered, read.Completed + read.Dropped + read.Failed);
        Assert.True(read.Failed > 0, "the kill failed no call: the fault did not happen");
        Assert.True(read.Failed <= read.Offered / 10, $"{read.Failed} of {read.Offered} failed");

        // Two seconds into the kill nothing should fail: grpc-dotnet takes the refused subchannel out of the balancer's
        // picker and retries its connection with back-off (a selector that kept picking the dead replica failed about
        // 20-30 calls every second).
        var lateDown = Enumerable.Range(KillAt + 2, RestartAt - KillAt - 2).Sum(s => seconds[s].Failed);
        Assert.True(lateDown <= 15, $"{lateDown} failed in seconds {KillAt + 2}-{RestartAt - 1}, while bs-1 was down");

        // Two seconds after the kill, while bs-1 is still down, and after its restart, nearly everything completes.
        foreach (var second in new[] { KillAt + 2, KillAt + 3, RestartAt + 1, RestartAt + 2 })
        {
            var bin = seconds[second];
            Assert.True(bin.Completed >= 0.8 * bin.Offered, $"second {second}: {bin}");
        }
    }
}
