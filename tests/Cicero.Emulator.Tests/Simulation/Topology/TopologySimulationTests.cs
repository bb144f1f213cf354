// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Simulation.Topology;

public sealed class TopologySimulationTests
{
    [Fact]
    public void Run_SameSeed_IdenticalResults()
    {
        var first = Run(TestScenarios.ReducedPerformanceIsolation(duration: 8, aggressorStart: 4, warmUp: 2), "rc+drr");
        var second = Run(TestScenarios.ReducedPerformanceIsolation(duration: 8, aggressorStart: 4, warmUp: 2), "rc+drr");
        var otherScenario = TestScenarios.ReducedPerformanceIsolation(duration: 8, aggressorStart: 4, warmUp: 2);
        otherScenario.Seed = 2;
        var other = Run(otherScenario, "rc+drr");

        Assert.Equal(first.ToJson(), second.ToJson());
        for (var w = 0; w < first.Workflows.Count; w++)
        {
            Assert.Equal(first.Workflows[w].LatenciesMs, second.Workflows[w].LatenciesMs);
        }

        Assert.NotEqual(first.ToJson(), other.ToJson());
        Assert.True(first.Events > 100_000, $"{first.Events} events");
    }

    [Theory]
    [InlineData("random")]
    [InlineData("p2c-peak-ewma")]
    [InlineData("c3")]
    public void Run_RandomisedReplicaSelector_SameSeedSameResultWithinOneProcess(string selector)
    {
        // The catalog's random and P2C factories share one seed source per process; the runner must not depend on it.
        var routes = $$"""[{ "from": "fe", "to": "be", "strategy": "blocks", "replication": 3, "replicaSelector": "{{selector}}" }]""";

        var first = Run(TestScenarios.Tiny(routes: routes), "rc").ToJson();
        var second = Run(TestScenarios.Tiny(routes: routes), "rc").ToJson();

        Assert.Equal(first, second);
    }

    [Fact]
    public void Run_RequestLeakedByHook_ThrowsConservationExceptionNamingTheCounts()
    {
        var simulation = new TopologySimulation(TestScenarios.Tiny(), TestScenarios.Tiny().Configurations![0])
        {
            LeakHook = id => id == 42,
        };

        var error = Assert.Throws<ConservationException>(() => simulation.Run());

        Assert.Equal("W", error.Workflow);
        Assert.Equal(1, error.Unaccounted);
        Assert.Equal(error.Offered - 1, error.Completed + error.Dropped + error.Failed);
        Assert.Contains($"offered {error.Offered} != completed {error.Completed} + dropped {error.Dropped} + failed {error.Failed}", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Run_EveryRequest_EndsInExactlyOneState()
    {
        var result = Run(TestScenarios.Tiny(), "rc");

        var w = result["W"];
        Assert.True(w.Offered > 300, $"offered {w.Offered}");
        Assert.Equal(w.Offered, w.Completed + w.Dropped + w.Failed);
        Assert.Equal(w.Offered, w.Completed);
        Assert.Equal(w.Completed, w.LatenciesMs.Count);
        Assert.InRange(w.LatencyMs.Mean, 5, 15);
    }

    [Fact]
    public void Run_CalleeSlowerThanTheRpcTimeout_EveryRequestTimesOut()
    {
        var scenario = TestScenarios.Tiny(
            stages: """[{ "call": "be", "stages": [{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 500 } }] }]""",
            network: """{ "oneWayDelayMs": 1, "rpcTimeoutMs": 100 }""",
            workloads: """[{ "workflow": "W", "ratePerSecond": 20 }]""");

        var w = Run(scenario, "rc")["W"];

        Assert.True(w.Offered > 50);
        Assert.Equal(w.Offered, w.TimedOut);
        Assert.Equal(w.Offered, w.FailedByReason["timeout"]);
        Assert.Equal(0, w.Completed);
    }

    [Fact]
    public void Run_NoRoomToQueue_DropsWithQueueFull()
    {
        var services = """
            [
              { "name": "fe", "instances": 1 },
              { "name": "be", "instances": 1, "resources": [{ "name": "disk", "kind": "disk", "capacity": 1, "maxQueueLength": 0 }] }
            ]
            """;
        var scenario = TestScenarios.Tiny(
            services: services,
            stages: """[{ "call": "be", "stages": [{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 20 } }] }]""");

        var w = Run(scenario, "rc")["W"];

        // 100 req/s into one 20 ms slot with no queue: most requests find it busy.
        Assert.True(w.DroppedByReason["queue-full"] > w.Offered / 2, $"dropped {w.Dropped} of {w.Offered}");
        Assert.Equal(w.Offered, w.Completed + w.Dropped);
    }

    [Fact]
    public void Run_ClosedLoopClients_OneRequestOutstandingEach()
    {
        // Disks wide enough that clients never queue behind each other.
        var services = TestScenarios.TinyServices.Replace("\"capacity\": 2", "\"capacity\": 8", StringComparison.Ordinal);
        var scenario = TestScenarios.Tiny(
            services: services,
            stages: """[{ "call": "be", "stages": [{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 99 } }] }]""",
            workloads: """[{ "workflow": "W", "kind": "closed-loop", "clients": 2, "steps": [{ "atSeconds": 3, "clients": 4 }] }]""",
            network: """{ "oneWayDelayMs": 0.5, "rpcTimeoutMs": 10000 }""",
            duration: 6);

        var result = Run(scenario, "rc");

        // Each client's cycle: 99 ms of disk, two network round trips, and the 1 ms minimum gap: about 10 requests/s.
        var series = result.TimeSeries.Where(p => p.Workflow == "W").ToDictionary(p => p.Second);
        Assert.InRange(series[1].Completed, 18, 20);
        Assert.InRange(series[4].Completed, 37, 40);
    }

    [Fact]
    public void Run_ConsistentHashOnePartition_UsesOneInstance()
    {
        var routes = """[{ "from": "fe", "to": "be", "strategy": "consistent-hash" }]""";

        var disk = Run(TestScenarios.Tiny(routes: routes), "rc").Resources.Single(r => r.Service == "be" && r.Resource == "disk");

        // All load lands on one of three instances, so the busiest one carries three times the average.
        Assert.Equal(3 * disk.Mean, disk.Max, 6);
    }

    [Fact]
    public void Run_WriteToAllReplicas_LoadsEveryCopy()
    {
        var routes = """[{ "from": "fe", "to": "be", "strategy": "blocks", "replication": 3, "replicaSelector": "c3" }]""";
        var one = TestScenarios.Tiny(routes: routes);
        var all = TestScenarios.Tiny(routes: routes, stages: """[{ "call": "be", "replicas": "all", "stages": [{ "use": "disk", "serviceTime": { "distribution": "exponential", "meanMs": 5 } }] }]""");

        var oneDisk = Run(one, "rc").Resources.Single(r => r.Resource == "disk").Mean;
        var allDisk = Run(all, "rc").Resources.Single(r => r.Resource == "disk").Mean;

        Assert.InRange(allDisk / oneDisk, 2.7, 3.3);
    }

    private static TopologyRunResult Run(Cicero.Emulator.Scenarios.ScenarioSpec scenario, string configuration) =>
        new TopologySimulation(scenario, scenario.Configurations!.Single(c => c.Name == configuration)).Run();
}
