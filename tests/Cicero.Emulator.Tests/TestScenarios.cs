// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Tests;

/// <summary>Small scenarios for tests: two front ends calling two back ends, one workflow, one configuration.</summary>
internal static class TestScenarios
{
    public const string TinyServices = """
        [
          { "name": "fe", "instances": 2, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 16 }, { "name": "connections", "kind": "connection-pool", "capacity": 32 }] },
          { "name": "be", "instances": 3, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 8 }, { "name": "disk", "kind": "disk", "capacity": 2 }] }
        ]
        """;

    public const string TinyStages = """[{ "call": "be", "stages": [{ "use": "disk", "serviceTime": { "distribution": "exponential", "meanMs": 5 } }] }]""";

    public const string TinyWorkloads = """[{ "workflow": "W", "kind": "poisson", "ratePerSecond": 100 }]""";

    public const string TinyConfigurations = """[{ "name": "rc", "rateControl": true }]""";

    public static string Json(
        string? services = TinyServices,
        string? routes = "[]",
        string stages = TinyStages,
        string workloads = TinyWorkloads,
        string configurations = TinyConfigurations,
        string network = """{ "oneWayDelayMs": 0.25, "rpcTimeoutMs": 10000 }""",
        double duration = 5,
        double warmUp = 1,
        int partitions = 1)
    {
        var servicesPart = services is null ? string.Empty : $"\"services\": {services},";
        var routesPart = routes is null ? string.Empty : $"\"routes\": {routes},";
        return $$"""
            {
              "name": "tiny",
              "seed": 7,
              "durationSeconds": {{duration}},
              "warmUpSeconds": {{warmUp}},
              "network": {{network}},
              {{servicesPart}}
              {{routesPart}}
              "workflows": [{ "name": "W", "partitions": {{partitions}}, "stages": {{stages}} }],
              "workloads": {{workloads}},
              "configurations": {{configurations}}
            }
            """;
    }

    public static ScenarioSpec Tiny(
        string? services = TinyServices,
        string? routes = "[]",
        string stages = TinyStages,
        string workloads = TinyWorkloads,
        string configurations = TinyConfigurations,
        string network = """{ "oneWayDelayMs": 0.25, "rpcTimeoutMs": 10000 }""",
        double duration = 5,
        double warmUp = 1,
        int partitions = 1) =>
        ScenarioLoader.Parse(Json(services, routes, stages, workloads, configurations, network, duration, warmUp, partitions));

    /// <summary>The default 5.3.1 scenario shortened: F starts at <paramref name="aggressorStart"/> instead of 50 s.</summary>
    public static ScenarioSpec ReducedPerformanceIsolation(double duration, double aggressorStart, double warmUp = 5)
    {
        var scenario = ScenarioLoader.LoadDefault();
        scenario.DurationSeconds = duration;
        scenario.WarmUpSeconds = warmUp;
        foreach (var workload in scenario.Workloads!.Where(w => w.Workflow == "F"))
        {
            workload.StartSeconds = aggressorStart;
        }

        return scenario;
    }
}
