// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Policies.RateLimiting;

namespace Cicero.Emulator.Tests.Scenarios;

public sealed class ScenarioLoaderTests
{
    [Fact]
    public void LoadDefault_EmbeddedScenario_HasTheDissertationSetUp()
    {
        var scenario = ScenarioLoader.LoadDefault();

        Assert.Equal(ScenarioLoader.DefaultScenarioName, scenario.Name);
        Assert.Equal(
            ["fe:10", "auth:5", "ps:10", "bs:10"],
            scenario.Services!.Select(s => $"{s.Name}:{s.Instances}"));
        Assert.Equal(["A", "B", "C", "D", "E", "F", "G"], scenario.Workflows!.Select(w => w.Name));
        Assert.Equal(["baseline", "rc", "rc+drr"], scenario.Configurations!.Select(c => c.Name));
        Assert.Equal(800, scenario.Workloads!.Where(w => w.Workflow == "F").Sum(w => w.RatePerSecond));
        Assert.All(scenario.Workloads!.Where(w => w.Workflow == "F"), w => Assert.Equal(50, w.StartSeconds));
        Assert.Contains(ScenarioLoader.DefaultScenarioName, ScenarioLoader.EmbeddedScenarioNames);
    }

    [Fact]
    public void LoadEmbedded_EveryScenario_IsValidAndDescribed()
    {
        Assert.Equal(
            ["c3-simulation", "cake-consolidation", "cassandra-ring", "hotspot", "low-latency", "overload-10x", "performance-isolation", "quantile-knob"],
            ScenarioLoader.EmbeddedScenarioNames);
        foreach (var name in ScenarioLoader.EmbeddedScenarioNames)
        {
            var scenario = ScenarioLoader.LoadEmbedded(name);
            Assert.Equal(name, scenario.Name);
            Assert.True(scenario.Description?.Length > 200, $"{name}: the description should give the set-up and our assumptions");
            Assert.Empty(ScenarioLoader.Validate(scenario));
        }
    }

    [Fact]
    public void Parse_NoServices_FillsInTheDefaultTopology()
    {
        var scenario = ScenarioLoader.Parse(TestScenarios.Json(services: null, routes: null, stages: """[{ "call": "ps", "stages": [{ "use": "compute", "serviceTime": { "meanMs": 1 } }] }]"""));

        Assert.Equal(35, scenario.Services!.Sum(s => s.Instances));
        Assert.Contains(scenario.Routes!, r => r.From == "fe" && r.To == "ps" && r.Strategy == RoutingStrategies.ConsistentHash);
        Assert.Contains(scenario.Routes!, r => r.From == "ps" && r.To == "bs" && r.Strategy == RoutingStrategies.Blocks && r.Replication == 3);
    }

    [Fact]
    public void Parse_ZeroInstances_NamesThePathAndTheValue()
    {
        var services = """
            [
              { "name": "fe", "instances": 2 },
              { "name": "ps", "instances": 1 },
              { "name": "bs", "instances": 0 }
            ]
            """;

        var stages = """[{ "call": "bs", "stages": [] }]""";

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(services: services, stages: stages)));

        Assert.Equal(["services[2].instances: must be >= 1, was 0"], error.Errors.Select(e => e.ToString()));
        Assert.Contains("services[2].instances: must be >= 1, was 0", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_ManyProblems_ReportsEveryOneWithItsPath()
    {
        var json = """
            {
              "name": "broken",
              "durationSeconds": 10,
              "warmUpSeconds": 20,
              "services": [
                { "name": "fe", "instances": 1, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 0 }] },
                { "name": "ps", "instances": 2, "resources": [{ "name": "cpu", "kind": "gpu" }] }
              ],
              "routes": [{ "from": "fe", "to": "db", "strategy": "blocks", "replicaSelector": "fastest" }],
              "workflows": [{ "name": "A", "stages": [
                { "call": "ps", "count": 0, "stages": [{ "use": "cpu", "serviceTime": { "distribution": "gamma", "meanMs": 1 } }] },
                { "use": "threads", "serviceTime": { "meanMs": -1 } },
                { "use": "x", "call": "ps" }
              ] }],
              "workloads": [{ "workflow": "Z", "kind": "poisson", "ratePerSecond": -5 }],
              "configurations": [{ "name": "c", "scheduler": "lifo", "quantile": 2 }]
            }
            """;

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(json));

        var messages = error.Errors.Select(e => e.ToString()).ToList();
        Assert.Equal(
            [
                "warmUpSeconds: must be less than durationSeconds (10), was 20",
                "services[0].resources[0].capacity: must be >= 1, was 0",
                "services[1].resources[0].kind: must be one of: thread-pool, connection-pool, disk, compute; was 'gpu'",
                "routes[0].to: unknown service 'db'; known: fe, ps",
                "routes[0].replicaSelector: must be one of: c3, c3-background, c3-paper, dynamic-snitch, least-outstanding, oracle, p2c-peak-ewma, random, round-robin; was 'fastest'",
                "workflows[0].stages[0].count: must be >= 1, was 0",
                "workflows[0].stages[0].stages[0].serviceTime.distribution: must be one of: exponential, constant, lognormal; was 'gamma'",
                "workflows[0].stages[1].use: 'threads' is a thread-pool, held implicitly; stages may use only disk or compute resources",
                "workflows[0].stages[1].serviceTime.meanMs: must be > 0, was -1",
                "workflows[0].stages[2]: must set exactly one of use, call or parallel, set 2",
                "workloads[0].workflow: unknown workflow 'Z'; known: A",
                "workloads[0].ratePerSecond: must be >= 0, was -5",
                "workloads[0]: offers no load: ratePerSecond is 0 and no step raises it",
                "configurations[0].scheduler: must be one of: cake-shares, drr, edf, fifo, lasf, lstf, priority, sjf, srtf; was 'lifo'",
                "configurations[0].quantile: must be in [0, 1], was 2",
            ],
            messages);
    }

    [Fact]
    public void Validate_WorkloadStartingAfterTheRun_NamesItsStart()
    {
        var scenario = ScenarioLoader.Parse(TestScenarios.Json());
        scenario.Workloads![0].StartSeconds = 40;
        scenario.DurationSeconds = 20;

        var problems = ScenarioLoader.Validate(scenario).Select(e => e.ToString()).ToList();

        Assert.Contains("workloads[0].startSeconds: must be less than durationSeconds (20), was 40; the workload would never start", problems);
    }

    [Fact]
    public void RateControl_TrueFalseOrAnObject_RoundTripsThroughJson()
    {
        var configurations = """[{ "name": "on", "rateControl": true }, { "name": "off", "rateControl": false }, { "name": "tuned", "rateControl": { "targetLoad": 1.5, "overloadHold": 0.8 } }]""";

        var parsed = ScenarioLoader.Parse(ScenarioLoader.ToJson(ScenarioLoader.Parse(TestScenarios.Json(configurations: configurations)))).Configurations!;

        Assert.True(parsed[0].RateControl);
        Assert.Null(parsed[0].RateControlSettings);
        Assert.False(parsed[1].RateControl);
        Assert.Null(parsed[1].RateControlSettings);
        Assert.True(parsed[2].RateControl);
        Assert.Equal(1.5, parsed[2].RateControlSettings!.Value.GetProperty("targetLoad").GetDouble());
    }

    [Fact]
    public void RateControl_BindsOntoThePolicyOptions_StagesTurnOnAndOff_AndAnUnknownNameIsAnError()
    {
        var configurations = """[{ "name": "rc", "rateControl": { "overloadHold": { "utilization": 0.6 }, "demandSmoothingTime": "00:00:04", "heldRateRegrowth": true, "goodputLimit": false } }]""";
        var configuration = ScenarioLoader.Parse(ScenarioLoader.ToJson(ScenarioLoader.Parse(TestScenarios.Json(configurations: configurations)))).Configurations!.Single();
        var options = new BottleneckFairnessOptions();

        RateControlBinding.Bind(configuration.RateControlSettings!.Value, options);

        Assert.Equal(0.6, options.OverloadHold!.Utilization);
        Assert.Equal(new OverloadHoldOptions().MinimumOverload, options.OverloadHold.MinimumOverload);
        Assert.Equal(TimeSpan.FromSeconds(4), options.DemandSmoothingTime);
        Assert.Equal(new HeldRateRegrowthOptions().RelativePerSecond, options.HeldRateRegrowth!.RelativePerSecond);
        Assert.Null(options.GoodputLimit);

        options = new BottleneckFairnessOptions();
        RateControlBinding.Bind(System.Text.Json.JsonDocument.Parse("""{ "goodputLimit": { "headroom": 3 } }""").RootElement, options);
        Assert.Equal(3, options.GoodputLimit!.Headroom);
        Assert.Equal(new GoodputLimitOptions().Window, options.GoodputLimit.Window);

        var scenario = ScenarioLoader.Parse(TestScenarios.Json());
        scenario.Configurations![0].RateControlSettings = System.Text.Json.JsonDocument.Parse("""{ "overloadHolds": 1, "maxDecrease": 2 }""").RootElement;
        var problem = Assert.Single(ScenarioLoader.Validate(scenario), e => e.Path == "configurations[0].rateControl");
        Assert.Contains("overloadHolds", problem.Message, StringComparison.Ordinal);

        scenario.Configurations[0].RateControlSettings = System.Text.Json.JsonDocument.Parse("""{ "maxDecrease": 2 }""").RootElement;
        problem = Assert.Single(ScenarioLoader.Validate(scenario), e => e.Path == "configurations[0].rateControl");
        Assert.Contains("MaxDecrease", problem.Message, StringComparison.Ordinal);

        scenario.Configurations[0].RateControlSettings = System.Text.Json.JsonDocument.Parse("3").RootElement;
        problem = Assert.Single(ScenarioLoader.Validate(scenario), e => e.Path == "configurations[0].rateControl");
        Assert.Contains("must be true, false, or a JSON object", problem.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RemovedRateControlFields_SayWhatToWriteInstead()
    {
        var configurations = """[{ "name": "rc", "rateDecreaseLimit": 0.03, "rateDemandSmoothingMs": 4000, "rateOverloadHold": 0.7, "rateGoodputLimit": false, "rateControlOptions": { "targetLoad": 2 }, "rateKnob": 1 }]""";
        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(configurations: configurations)));

        var problems = error.Errors.Select(e => e.ToString()).ToList();

        Assert.Contains("""configurations[0].rateDecreaseLimit: was removed (docs/decisions/0021): write "rateControl": { "maxDecrease": 0.03 }""", problems);
        Assert.Contains("""configurations[0].rateDemandSmoothingMs: was removed (docs/decisions/0021): write "rateControl": { "demandSmoothingTime": "00:00:04" }""", problems);
        Assert.Contains("""configurations[0].rateOverloadHold: was removed (docs/decisions/0021): write "rateControl": { "overloadHold": { "utilization": 0.7 } }""", problems);
        Assert.Contains("""configurations[0].rateGoodputLimit: was removed (docs/decisions/0021): write "rateControl": { "goodputLimit": false }""", problems);
        Assert.Contains(problems, p => p.StartsWith("configurations[0].rateControlOptions: was renamed", StringComparison.Ordinal));
        Assert.Contains("configurations[0].rateKnob: unknown field; check its spelling against docs/emulator.md", problems);
    }

    [Fact]
    public void Parse_UnknownField_NamesItsPath()
    {
        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse("""{ "name": "x", "services": [{ "name": "a", "instancez": 1 }] }"""));

        var only = Assert.Single(error.Errors);
        Assert.Equal("services[0].instancez", only.Path);
        Assert.StartsWith("unknown field (line 1", only.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_WrongValueType_SaysWhatWasExpected()
    {
        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse("""{ "name": "x", "durationSeconds": "long" }"""));

        Assert.Equal("durationSeconds: invalid JSON (line 1, byte 40): expected a number", Assert.Single(error.Errors).ToString());
    }

    [Fact]
    public void Parse_StepsOfTheWrongKind_AreRejected()
    {
        var workloads = """
            [
              { "workflow": "W", "kind": "closed-loop", "clients": 2, "steps": [{ "atSeconds": 3, "ratePerSecond": 5 }] },
              { "workflow": "W", "kind": "poisson", "ratePerSecond": 5, "steps": [{ "atSeconds": 3, "ratePerSecond": 10 }, { "atSeconds": 2, "ratePerSecond": 1 }] }
            ]
            """;

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(workloads: workloads)));

        Assert.Equal(
            [
                "workloads[0].steps[0].clients: is required for a closed-loop workload",
                "workloads[0].steps[0].ratePerSecond: applies only to open-loop workloads; use clients",
                "workloads[1].steps[1].atSeconds: steps must be in time order; 2 comes after 3",
            ],
            error.Errors.Select(e => e.ToString()));
    }

    [Fact]
    public void Parse_ReplicasAllWithoutBlocksRoute_IsRejected()
    {
        var stages = """[{ "call": "be", "replicas": "all", "stages": [] }]""";

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(stages: stages)));

        Assert.Equal("workflows[0].stages[0].replicas: 'all' needs a blocks route from 'fe' to 'be'", Assert.Single(error.Errors).ToString());
    }

    [Fact]
    public void ToJson_DefaultScenario_RoundTrips()
    {
        var first = ScenarioLoader.ToJson(ScenarioLoader.LoadDefault());
        var second = ScenarioLoader.ToJson(ScenarioLoader.Parse(first));

        Assert.Equal(first, second);
    }
}
