// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Live;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Live;

/// <summary>The same small scenario, live over loopback gRPC and simulated: per-workflow throughput agrees.</summary>
[Collection(LiveRuns.Name)]
public sealed class LiveRunnerTests(Xunit.Abstractions.ITestOutputHelper output)
{
    // FE -> PS (consistent hashing) -> BS (blocks, 2 copies, C3); a second workflow with a sequential fan-out and a
    // parallel branch. Light load (disks about a fifth busy), so both runners complete what is offered.
    private const string Scenario = """
        {
          "name": "live-small",
          "seed": 7,
          "durationSeconds": 8,
          "warmUpSeconds": 2,
          "network": {"oneWayDelayMs": 0.5, "rpcTimeoutMs": 5000},
          "services": [
            {"name": "fe", "instances": 2, "resources": [{"name": "threads", "kind": "thread-pool", "capacity": 64}]},
            {"name": "ps", "instances": 2, "resources": [{"name": "threads", "kind": "thread-pool", "capacity": 64}, {"name": "compute", "kind": "compute", "capacity": 4}]},
            {"name": "bs", "instances": 3, "resources": [{"name": "disk", "kind": "disk", "capacity": 4}]}
          ],
          "routes": [
            {"from": "fe", "to": "ps", "strategy": "consistent-hash"},
            {"from": "ps", "to": "bs", "strategy": "blocks", "blocksPerPartition": 8, "replication": 2, "replicaSelector": "c3"}
          ],
          "workflows": [
            {
              "name": "reads",
              "partitions": 4,
              "stages": [
                {"call": "ps", "stages": [
                  {"use": "compute", "serviceTime": {"distribution": "constant", "meanMs": 1}},
                  {"call": "bs", "count": 2, "stages": [{"use": "disk", "serviceTime": {"distribution": "exponential", "meanMs": 3}}]}
                ]}
              ]
            },
            {
              "name": "writes",
              "partitions": 2,
              "deadlineMs": 2000,
              "stages": [
                {"call": "ps", "stages": [
                  {"call": "bs", "replicas": "all", "stages": [{"use": "disk", "serviceTime": {"distribution": "exponential", "meanMs": 4}}]},
                  {"parallel": [
                    [{"use": "compute", "serviceTime": {"distribution": "constant", "meanMs": 2}}],
                    [{"call": "bs", "inParallel": false, "count": 2, "stages": [{"use": "disk", "serviceTime": {"distribution": "constant", "meanMs": 2}}]}]
                  ]}
                ]}
              ]
            }
          ],
          "workloads": [
            {"workflow": "reads", "kind": "poisson", "ratePerSecond": 60},
            {"workflow": "writes", "kind": "closed-loop", "clients": 8, "thinkTime": {"distribution": "exponential", "meanMs": 300}}
          ],
          "configurations": [
            {"name": "rc", "rateControl": true, "scheduler": "fifo", "rateLimitPolicy": "bottleneck-fairness", "dropPolicy": "deadline-feasibility"}
          ]
        }
        """;

    [Fact]
    public async Task Live_run_over_loopback_matches_the_simulated_throughput_within_15_percent()
    {
        var scenario = ScenarioLoader.Parse(Scenario);
        var configuration = scenario.Configurations![0];

        var simulated = new TopologySimulation(scenario, configuration).Run();
        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(50));
        var live = await new LiveTopologyRunner(scenario, configuration).RunAsync(limit.Token);

        foreach (var workflow in new[] { "reads", "writes" })
        {
            var sim = simulated[workflow];
            var real = live[workflow];
            Assert.True(real.Offered > 0 && sim.Offered > 0, $"{workflow}: nothing offered");
            Assert.Equal(real.Offered, real.Completed + real.Dropped + real.Failed);
            var ratio = real.Throughput / sim.Throughput;
            output.WriteLine($"{workflow}: live {real.Throughput:F1}/s p50 {real.LatencyMs.P50:F1} ms, simulated {sim.Throughput:F1}/s p50 {sim.LatencyMs.P50:F1} ms, ratio {ratio:F3}");
            Assert.True(
                ratio is > 0.85 and < 1.15,
                $"{workflow}: live {real.Throughput:F1}/s vs simulated {sim.Throughput:F1}/s (ratio {ratio:F2}); live failed {string.Join(",", real.FailedByReason)} dropped {string.Join(",", real.DroppedByReason)}");
        }

        Assert.NotEmpty(live.Rates);
        Assert.Contains(live.Resources, r => r.Service == "bs" && r.Mean > 0);
    }
}
