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

    private const double WritesThinkTimeMs = 300;

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
            // A closed loop's throughput is N / (Z + R): a busy machine raises the live R (the handlers, not the model,
            // run slower), so the simulated throughput is scaled to the live response time before comparing. An open
            // loop's throughput does not depend on R.
            var expected = workflow == "writes"
                ? sim.Throughput * (WritesThinkTimeMs + sim.LatencyMs.Mean) / (WritesThinkTimeMs + real.LatencyMs.Mean)
                : sim.Throughput;
            var ratio = real.Throughput / expected;
            output.WriteLine($"{workflow}: live {real.Throughput:F1}/s mean {real.LatencyMs.Mean:F1} ms, simulated {sim.Throughput:F1}/s mean {sim.LatencyMs.Mean:F1} ms, expected live {expected:F1}/s, ratio {ratio:F3}");
            Assert.True(
                ratio is > 0.85 and < 1.15,
                $"{workflow}: live {real.Throughput:F1}/s vs {expected:F1}/s expected from the simulated {sim.Throughput:F1}/s (ratio {ratio:F2}); live failed {string.Join(",", real.FailedByReason)} dropped {string.Join(",", real.DroppedByReason)}");
        }

        Assert.NotEmpty(live.Rates);
        Assert.Contains(live.Resources, r => r.Service == "bs" && r.Mean > 0);
    }

    [Fact]
    public async Task Instances_at_configured_addresses_serve_a_driver_that_hosts_the_rest()
    {
        var scenario = ScenarioLoader.Parse(Scenario);
        scenario.DurationSeconds = 4;
        scenario.WarmUpSeconds = 1;
        var configuration = scenario.Configurations![0];
        var bsAddresses = Enumerable.Range(0, 3).Select(_ => $"http://127.0.0.1:{FreePort()}").ToList();

        // The block servers: hosted by their own runner, as a separate process per instance would.
        var nodes = new LiveRunnerOptions { HostedInstances = new HashSet<string> { "bs-0", "bs-1", "bs-2" }, ListenHost = "127.0.0.1" };
        nodes.Addresses["bs"] = bsAddresses;
        using var stopNodes = new CancellationTokenSource(TimeSpan.FromSeconds(50));
        var hosting = new LiveTopologyRunner(scenario, configuration, options: nodes).HostAsync(stopNodes.Token);

        // The driver: hosts FE and PS, offers the load, reaches the block servers only by address.
        var driver = new LiveRunnerOptions();
        driver.Addresses["bs"] = bsAddresses;
        var result = await new LiveTopologyRunner(scenario, configuration, options: driver).RunAsync(stopNodes.Token);
        await stopNodes.CancelAsync();
        await hosting;

        var reads = result["reads"];
        Assert.True(reads.Offered > 100, $"only {reads.Offered} offered");
        Assert.True(reads.CompletedFraction > 0.95, $"completed {reads.CompletedFraction:P1}; failed {string.Join(",", reads.FailedByReason)}");
        Assert.DoesNotContain(result.Resources, r => r.Service == "bs" && r.Mean > 0);
    }

    [Fact]
    public void Addresses_that_do_not_match_the_scenario_are_rejected_with_their_path()
    {
        var scenario = ScenarioLoader.Parse(Scenario);
        var options = new LiveRunnerOptions();
        options.Addresses["bs"] = ["http://127.0.0.1:1", "not-a-uri"];
        options.Addresses["cache"] = ["http://127.0.0.1:2"];

        var ex = Assert.Throws<ScenarioValidationException>(() => new LiveTopologyRunner(scenario, scenario.Configurations![0], options: options));
        Assert.Contains(ex.Errors, e => e.Path == "addresses.bs" && e.Message.Contains("has 2 addresses; the service has 3 instances", StringComparison.Ordinal));
        Assert.Contains(ex.Errors, e => e.Path == "addresses.bs[1]");
        Assert.Contains(ex.Errors, e => e.Path == "addresses.cache");
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }
}
