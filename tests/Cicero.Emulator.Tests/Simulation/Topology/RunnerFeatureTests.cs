// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Simulation.Topology;

/// <summary>The runner features the reproduction scenarios rely on: shared tables, background periods, local reads.</summary>
public sealed class RunnerFeatureTests
{
    private const string Disk5 = """{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 5 } }""";

    [Fact]
    public void Run_WorkflowsSharingATable_LandOnTheSameInstance()
    {
        var scenario = ScenarioLoader.Parse($$"""
            {
              "name": "shared", "durationSeconds": 3, "warmUpSeconds": 1,
              "services": [{ "name": "fe", "instances": 1 }, { "name": "be", "instances": 8, "resources": [{ "name": "disk", "kind": "disk", "capacity": 8 }] }],
              "routes": [{ "from": "fe", "to": "be", "strategy": "consistent-hash" }],
              "workflows": [
                { "name": "A", "table": "hot", "stages": [{ "call": "be", "stages": [{{Disk5}}] }] },
                { "name": "B", "table": "hot", "stages": [{ "call": "be", "stages": [{{Disk5}}] }] }
              ],
              "workloads": [{ "workflow": "A", "ratePerSecond": 50 }, { "workflow": "B", "ratePerSecond": 50 }],
              "configurations": [{ "name": "fifo", "rateControl": false }]
            }
            """);

        var disk = Run(scenario).Resources.Single(r => r.Resource == "disk");

        // One of eight instances carries both workflows.
        Assert.Equal(8 * disk.Mean, disk.Max, 6);
    }

    [Fact]
    public void Parse_SharedTableWithOtherPartitions_IsRejected()
    {
        var json = TestScenarios.Json().Replace("\"partitions\": 1", "\"table\": \"t\", \"partitions\": 1", StringComparison.Ordinal)
            .Replace("\"workflows\": [", "\"workflows\": [{ \"name\": \"V\", \"table\": \"t\", \"partitions\": 2, \"stages\": [{ \"call\": \"be\" }] }, ", StringComparison.Ordinal);

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(json));

        Assert.Contains(error.Errors, e => e.Path == "workflows[1].partitions" && e.Message.Contains("sharing table 't'", StringComparison.Ordinal));
    }

    [Fact]
    public void Run_BackgroundPeriodEveryInterval_ScalesServiceTimes()
    {
        var quiet = Ring(background: """{ "intervalMs": 100, "probability": 0, "factor": 3 }""", serveLocally: false, oneWayMs: 0);
        var busy = Ring(background: """{ "intervalMs": 100, "probability": 1, "factor": 3 }""", serveLocally: false, oneWayMs: 0);

        Assert.Equal(5, Run(quiet)["read"].LatencyMs.Max, 6);
        Assert.Equal(15, Run(busy)["read"].LatencyMs.Max, 6);
    }

    [Fact]
    public void Run_ServeLocally_ReadsTheCoordinatorsOwnCopyWithoutNetworkOrQueue()
    {
        // Three nodes, three copies of everything: every coordinator holds every key.
        var remote = Run(Ring(background: null, serveLocally: false, oneWayMs: 1))["read"];
        var local = Run(Ring(background: null, serveLocally: true, oneWayMs: 1))["read"];

        // Round robin sends two reads in three to another node (two 1 ms hops) and one to the coordinator itself (none).
        Assert.Equal(7, remote.LatencyMs.Max, 6);
        Assert.InRange(remote.LatenciesMs.Count(l => l < 6) / (double)remote.Completed, 0.25, 0.42);
        Assert.Equal(5, local.LatencyMs.Max, 6);
        Assert.Equal(local.Offered, local.LatenciesMs.Count(l => Math.Abs(l - 5) < 1e-6));
    }

    [Fact]
    public void Run_BackgroundPeriodsAndLocalReads_SameSeedIdenticalResults()
    {
        var scenario = Ring(background: """{ "intervalMs": 50, "probability": 0.3, "factor": 4 }""", serveLocally: true, oneWayMs: 0.5);
        scenario.Configurations![0].ReplicaSelector = "c3-background";

        Assert.Equal(Run(scenario).ToJson(), Run(scenario).ToJson());
    }

    [Fact]
    public void Run_CakeSlo_EasilyMetSloGivesShareBackToTheBatch()
    {
        var scenario = ScenarioLoader.Parse($$"""
            {
              "name": "cake", "durationSeconds": 6, "warmUpSeconds": 1,
              "services": [{ "name": "fe", "instances": 1 }, { "name": "be", "instances": 2, "resources": [{ "name": "disk", "kind": "disk", "capacity": 2 }] }],
              "workflows": [
                { "name": "front", "latencySloMs": 1000, "stages": [{ "call": "be", "stages": [{{Disk5}}] }] },
                { "name": "batch", "stages": [{ "call": "be", "stages": [{{Disk5}}] }] }
              ],
              "workloads": [{ "workflow": "front", "ratePerSecond": 50 }, { "workflow": "batch", "kind": "closed-loop", "clients": 8 }],
              "configurations": [{ "name": "cake", "scheduler": "cake-shares", "rateLimitPolicy": "cake-slo", "sloIntervalSeconds": 1 }]
            }
            """);
        var simulation = new TopologySimulation(scenario, scenario.Configurations![0]);

        simulation.Run();

        // A p99 far under its SLO (normalised performance above 1.2) gives back at most 10% of share per interval.
        var controllers = simulation.Instances[1].Select(i => i.Cake!).ToList();
        Assert.All(controllers, c => Assert.InRange(c.Adjustments, 5, 6));
        Assert.All(controllers, c => Assert.InRange(c.GetShare(new Cicero.Workflows.WorkflowId("front"))!.Value, 0.5 * Math.Pow(0.9, 6) - 1e-9, 0.5 * Math.Pow(0.9, 5) + 1e-9));
        Assert.Null(simulation.Instances[0][0].Cake);
    }

    [Theory]
    [InlineData("""{ "name": "x", "scheduler": "fifo", "rateLimitPolicy": "cake-slo" }""", "configurations[0].scheduler")]
    [InlineData("""{ "name": "x", "scheduler": "cake-shares", "rateLimitPolicy": "cake-slo", "rateControl": false }""", "configurations[0].rateControl")]
    [InlineData("""{ "name": "x", "scheduler": "cake-shares", "rateLimitPolicy": "cake-slo" }""", "configurations[0].rateLimitPolicy")]
    [InlineData("""{ "name": "x", "replicaSelector": "oracle" }""", "configurations[0].replicaSelector")]
    [InlineData("""{ "name": "x", "c3MaxTokens": 0 }""", "configurations[0].c3MaxTokens")]
    public void Parse_InvalidConfiguration_NamesTheField(string configuration, string path)
    {
        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(configurations: $"[{configuration}]")));

        Assert.Contains(error.Errors, e => e.Path == path);
    }

    [Fact]
    public void Parse_BackgroundProbabilityAboveOne_IsRejected()
    {
        var services = TestScenarios.TinyServices.Replace("\"instances\": 3,", "\"instances\": 3, \"background\": { \"probability\": 1.5 },", StringComparison.Ordinal);

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(services: services)));

        Assert.Contains(error.Errors, e => e.Path == "services[1].background.probability");
    }

    private static ScenarioSpec Ring(string? background, bool serveLocally, double oneWayMs)
    {
        var backgroundPart = background is null ? string.Empty : $", \"background\": {background}";
        return ScenarioLoader.Parse($$"""
            {
              "name": "ring", "durationSeconds": 3, "warmUpSeconds": 1, "entryService": "node",
              "network": { "oneWayDelayMs": {{oneWayMs}} },
              "services": [{ "name": "node", "instances": 3, "resources": [{ "name": "read", "kind": "compute", "capacity": 64 }]{{backgroundPart}} }],
              "routes": [{ "from": "node", "to": "node", "strategy": "blocks", "replication": 3, "replicaSelector": "round-robin" }],
              "workflows": [{ "name": "read", "stages": [{ "call": "node", "stages": [{ "use": "read", "serviceTime": { "distribution": "constant", "meanMs": 5 } }] }] }],
              "workloads": [{ "workflow": "read", "ratePerSecond": 100 }],
              "configurations": [{ "name": "x", "rateControl": false, "serveLocally": {{(serveLocally ? "true" : "false")}} }]
            }
            """);
    }

    private static TopologyRunResult Run(ScenarioSpec scenario) => new TopologySimulation(scenario, scenario.Configurations![0]).Run();
}
