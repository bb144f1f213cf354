// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Tests.Scenarios;

/// <summary>Values that passed validation and then exhausted memory, and service graphs with cycles (issue 20).</summary>
public sealed class ScenarioLimitsTests
{
    [Theory]
    [InlineData("workloads[0].ratePerSecond", """[{ "workflow": "W", "kind": "poisson", "ratePerSecond": 1e12 }]""", null, null)]
    [InlineData("workloads[0].clients", """[{ "workflow": "W", "kind": "closed-loop", "clients": 100000000 }]""", null, null)]
    [InlineData("workflows[0].stages[0].count", null, """[{ "call": "be", "count": 1000000000, "stages": [] }]""", null)]
    [InlineData("services[1].instances", null, null, "10000000")]
    public void Validate_HugeValues_AreErrorsNamingTheField(string path, string? workloads, string? stages, string? instances)
    {
        var json = TestScenarios.Json(
            workloads: workloads ?? TestScenarios.TinyWorkloads,
            stages: stages ?? TestScenarios.TinyStages,
            services: instances is null ? TestScenarios.TinyServices : TestScenarios.TinyServices.Replace("\"instances\": 3", "\"instances\": " + instances, StringComparison.Ordinal));

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(json));

        Assert.Contains(error.Errors, e => e.Path == path && e.Message.Contains("must be <=", StringComparison.Ordinal));
    }

    [Fact]
    public void Validate_RateTimesDuration_IsBounded()
    {
        var json = TestScenarios.Json(workloads: """[{ "workflow": "W", "kind": "poisson", "ratePerSecond": 900000 }]""", duration: 600);

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(json));

        Assert.Contains(error.Errors, e => e.Path == "workloads" && e.Message.Contains("requests", StringComparison.Ordinal));
    }

    [Fact]
    public void Validate_NestedFanOut_IsBounded()
    {
        var stages = """[{ "call": "be", "count": 2000, "stages": [{ "call": "fe", "count": 2000, "stages": [] }] }]""";

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(stages: stages)));

        Assert.Contains(error.Errors, e => e.Message.Contains("fan out", StringComparison.Ordinal));
    }

    [Fact]
    public void Validate_Cycle_IsRejectedWithItsPath()
    {
        var stages = """[{ "call": "be", "stages": [{ "call": "fe", "stages": [] }] }]""";

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(stages: stages)));

        var cycle = Assert.Single(error.Errors, e => e.Message.Contains("cycle", StringComparison.Ordinal));
        Assert.Contains("fe -> be -> fe", cycle.Message, StringComparison.Ordinal);
        Assert.StartsWith("workflows[0].stages[0]", cycle.Path, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_ServiceCallingItself_IsNotACycle()
    {
        var stages = """[{ "call": "be", "stages": [{ "call": "be", "stages": [{ "use": "disk", "serviceTime": { "meanMs": 1 } }] }] }]""";

        var scenario = ScenarioLoader.Parse(TestScenarios.Json(stages: stages));

        Assert.Equal("tiny", scenario.Name);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    public void Validate_GeneratedGraphs_CyclesFoundExactlyWhenABackEdgeIsAdded(int seed)
    {
        // A random DAG over s0..sN (calls only go to higher numbers), as nested call chains; then one edge back.
        var random = new Random(seed);
        var count = random.Next(3, 8);
        var services = string.Join(", ", Enumerable.Range(0, count).Select(i =>
            $$"""{ "name": "s{{i}}", "instances": 1, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 4 }, { "name": "cpu", "kind": "compute", "capacity": 1 }] }"""));
        var chains = new List<List<int>>();
        for (var c = 0; c < 4; c++)
        {
            var chain = new List<int> { 0 };
            while (chain[^1] < count - 1 && random.Next(4) > 0)
            {
                chain.Add(random.Next(chain[^1] + 1, count));
            }

            chains.Add(chain);
        }

        string Stages(List<int> chain, int from) => from == chain.Count - 1
            ? """[{ "use": "cpu", "serviceTime": { "meanMs": 1 } }]"""
            : $$"""[{ "call": "s{{chain[from + 1]}}", "stages": {{Stages(chain, from + 1)}} }]""";
        string Json(IEnumerable<List<int>> all) => $$"""
            {
              "name": "generated", "durationSeconds": 5, "warmUpSeconds": 1, "entryService": "s0",
              "services": [{{services}}],
              "workflows": [{{string.Join(", ", all.Select((chain, i) => $$"""{ "name": "w{{i}}", "stages": {{Stages(chain, 0)}} }"""))}}],
              "workloads": [{ "workflow": "w0", "ratePerSecond": 10 }],
              "configurations": [{ "name": "rc" }]
            }
            """;

        Assert.Equal("generated", ScenarioLoader.Parse(Json(chains)).Name);

        var longest = chains.OrderByDescending(c => c.Count).First();
        if (longest.Count < 2)
        {
            longest = [0, count - 1];
            chains.Add(longest);
        }

        var back = new List<int>(longest) { longest[0] };
        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(Json([.. chains, back])));
        Assert.Contains(error.Errors, e => e.Message.Contains("cycle", StringComparison.Ordinal) && e.Message.Contains("s0 -> ", StringComparison.Ordinal));
    }
}
