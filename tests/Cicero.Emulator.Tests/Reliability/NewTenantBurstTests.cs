// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Xunit.Abstractions;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// Issue 17's cold start, under the simulator's virtual time: a tenant nobody has seen sends about 400 calls from 32
/// concurrent clients (2 s deadline, a 15 ms call) to a healthy service, and loses nothing under the defaults.
/// </summary>
/// <remarks>
/// Algorithm 4 as written, run beside it for the record, also loses nothing in this simulated setup (its admission
/// queue absorbs the burst); the loss the issue saw came from its σ starting at the lagging measured rate, which
/// <c>BottleneckFairnessSafeDefaultsTests.NewWorkflow_AtAHealthySystem_IsAdmittedUnlimited</c> pins at the policy.
/// </remarks>
public sealed class NewTenantBurstTests(ITestOutputHelper output)
{
    private const string Scenario = """
        {
          "name": "new-tenant-burst", "seed": 5, "durationSeconds": 12, "warmUpSeconds": 0,
          "network": { "rpcTimeoutMs": 2000 },
          "services": [ { "name": "fe", "instances": 2, "resources": [
            { "name": "threads", "kind": "thread-pool", "capacity": 1024 },
            { "name": "disk", "kind": "disk", "capacity": 64 } ] } ],
          "workflows": [
            { "name": "old", "stages": [ { "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 15 } } ] },
            { "name": "new", "stages": [ { "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 15 } } ] } ],
          "workloads": [
            { "workflow": "old", "kind": "poisson", "ratePerSecond": 50 },
            { "workflow": "new", "kind": "closed-loop", "clients": 32, "startSeconds": 10, "stopSeconds": 10.2 } ],
          "configurations": [
            { "name": "rc", "deadlineMs": 2000 },
            { "name": "rc-paper", "rateLimitPolicy": "bottleneck-fairness-paper", "deadlineMs": 2000 } ]
        }
        """;

    [Fact]
    public void NewTenantBurst_AtAHealthySystem_LosesNothingUnderTheDefaults()
    {
        var scenario = ScenarioLoader.Parse(Scenario, "new-tenant-burst.json");
        var safe = Run(scenario, "rc")["new"];
        _ = Run(scenario, "rc-paper");

        Assert.InRange(safe.Offered, 300, 500);
        Assert.Equal(safe.Offered, safe.Completed);
        Assert.Equal(0, safe.Dropped);
        Assert.Equal(0, safe.Failed);
    }

    private TopologyRunResult Run(ScenarioSpec scenario, string configuration)
    {
        var result = new TopologySimulation(scenario, scenario.Configurations!.Single(c => c.Name == configuration)).Run();
        var workflow = result["new"];
        output.WriteLine($"{configuration}: offered {workflow.Offered}, completed {workflow.Completed}, drops {string.Join(", ", workflow.DroppedByReason.Select(r => $"{r.Key} {r.Value}"))}");
        return result;
    }
}
