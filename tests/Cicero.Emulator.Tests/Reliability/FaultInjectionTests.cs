// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Xunit.Abstractions;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// Issue 8 item 2 in the simulated runner: a block server killed and restarted, a slow one, and a broken rate-exchange
/// link. The topology: 2 front ends read blocks replicated on 3 of 3 block servers (each 8 disk slots, 5 ms mean), so
/// one server alone can carry the 600 requests per second offered; the run's conservation check covers every request.
/// </summary>
public sealed class FaultInjectionTests(ITestOutputHelper output)
{
    private const double Rate = 600;
    private const int FaultAt = 4;
    private const int FaultUntil = 8;

    [Fact]
    public void Kill_BlockServer_NoRequestLost_ThroughputBackWithinTwoSeconds_AndAfterRestart()
    {
        var result = Run(Fault(FaultKinds.Kill), "c3", rateControl: true);

        AssertConserved(result);
        var seconds = Seconds(result);
        Print(seconds);
        var failed = seconds.Values.Sum(s => s.Failed);
        Assert.True(failed > 0, "the kill failed no call: the fault did not happen");
        for (var s = FaultAt + 2; s < FaultUntil; s++)
        {
            Assert.True(seconds[s].Completed >= 0.9 * seconds[s].Offered, $"second {s}, 2 s or more after the kill: {seconds[s]}");
        }

        for (var s = FaultUntil + 1; s < 12; s++)
        {
            Assert.True(seconds[s].Completed >= 0.97 * seconds[s].Offered, $"second {s}, after the restart: {seconds[s]}");
        }

        // Rates neither freeze at zero nor vanish: the front ends keep announcing a finite, positive rate per second.
        var fe = result.Rates.Where(r => r.Service == "fe" && r.Second >= FaultAt && r.Second < FaultUntil && r.TotalRate is not null).ToList();
        Assert.NotEmpty(fe);
        Assert.All(fe, r => Assert.True(r.TotalRate > Rate * 0.9, $"second {r.Second}: Σσ at the front ends {r.TotalRate}"));
    }

    [Fact]
    public void Slow_BlockServer_C3ContainsIt_BetterThanRoundRobin()
    {
        var c3 = Run(Fault(FaultKinds.Slow, factor: 10), "c3", rateControl: true);
        var roundRobin = Run(Fault(FaultKinds.Slow, factor: 10), "round-robin", rateControl: true);

        AssertConserved(c3);
        AssertConserved(roundRobin);
        var c3Latency = MeanLatency(c3, FaultAt + 1, FaultUntil);
        var rrLatency = MeanLatency(roundRobin, FaultAt + 1, FaultUntil);
        output.WriteLine(FormattableString.Invariant($"mean latency while slow: c3 {c3Latency:0.0} ms, round-robin {rrLatency:0.0} ms"));
        Assert.True(c3Latency < rrLatency / 2, $"c3 {c3Latency:0.0} ms vs round-robin {rrLatency:0.0} ms");
        var seconds = Seconds(c3);
        for (var s = FaultAt + 1; s < FaultUntil; s++)
        {
            Assert.True(seconds[s].Completed >= 0.95 * seconds[s].Offered, $"second {s}: {seconds[s]}");
        }
    }

    [Fact]
    public void RateExchangeLoss_RatesHeldThenExpired_NeverCollapse()
    {
        var result = Run(Fault(FaultKinds.RateExchangeLoss), "c3", rateControl: true);

        AssertConserved(result);
        var seconds = Seconds(result);
        for (var s = 2; s < 12; s++)
        {
            Assert.True(seconds[s].Completed >= 0.97 * seconds[s].Offered, $"second {s}: {seconds[s]}");
        }

        var fe = result.Rates.Where(r => r.Service == "fe" && r.Second >= 2 && r.TotalRate is not null).ToList();
        Assert.NotEmpty(fe);
        Assert.All(fe, r => Assert.True(r.TotalRate > Rate * 0.9, $"second {r.Second}: Σσ at the front ends {r.TotalRate}"));
    }

    [Fact]
    public void Faults_Invalid_NamedByPath()
    {
        var scenario = ScenarioLoader.Parse(Json("""[{ "kind": "kill", "service": "bs", "instance": 1, "atSeconds": 4, "untilSeconds": 8 }]""", "c3", rateControl: true));
        scenario.Faults =
        [
            new FaultSpec { Kind = "explode", Service = "bs", Instance = 0, AtSeconds = 1, UntilSeconds = 2 },
            new FaultSpec { Kind = FaultKinds.Kill, Service = "bs", Instance = 3, AtSeconds = 1, UntilSeconds = 2 },
            new FaultSpec { Kind = FaultKinds.Kill, Service = "fe", Instance = 0, AtSeconds = 1, UntilSeconds = 2 },
            new FaultSpec { Kind = FaultKinds.Slow, Service = "bs", Instance = 0, AtSeconds = 3, UntilSeconds = 2, Factor = 0 },
        ];

        var problems = ScenarioLoader.Validate(scenario).Select(e => e.ToString()).ToList();

        Assert.Equal(
            [
                "faults[0].kind: must be one of: kill, slow, rate-exchange-loss; was 'explode'",
                "faults[1].instance: must be in 0-2 (bs has 3 instances), was 3",
                "faults[2].service: 'fe' is the entry service; faults go to services that other services call",
                "faults[3].untilSeconds: must be greater than atSeconds (3), was 2",
                "faults[3].factor: must be > 0, was 0",
            ],
            problems);
    }

    private static string Fault(string kind, double factor = 10) => FormattableString.Invariant(
        $$"""[{ "kind": "{{kind}}", "service": "bs", "instance": 1, "atSeconds": {{FaultAt}}, "untilSeconds": {{FaultUntil}}, "factor": {{factor}} }]""");

    private static TopologyRunResult Run(string faults, string selector, bool rateControl)
    {
        var scenario = ScenarioLoader.Parse(Json(faults, selector, rateControl));
        return new TopologySimulation(scenario, scenario.Configurations![0]).Run();
    }

    private static string Json(string faults, string selector, bool rateControl) => FormattableString.Invariant($$"""
        {
          "name": "faults", "seed": 5, "durationSeconds": 12, "warmUpSeconds": 1,
          "network": { "oneWayDelayMs": 0.25, "rpcTimeoutMs": 1000 },
          "services": [
            { "name": "fe", "instances": 2, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 1024 }] },
            { "name": "bs", "instances": 3, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 1024 }, { "name": "disk", "kind": "disk", "capacity": 8 }] }
          ],
          "routes": [{ "from": "fe", "to": "bs", "strategy": "blocks", "replication": 3, "replicaSelector": "{{selector}}" }],
          "workflows": [{ "name": "read", "stages": [{ "call": "bs", "stages": [{ "use": "disk", "serviceTime": { "meanMs": 5 } }] }] }],
          "workloads": [{ "workflow": "read", "ratePerSecond": {{Rate}} }],
          "configurations": [{ "name": "x", "rateControl": {{(rateControl ? "true" : "false")}}, "rateLimitPolicy": "bottleneck-fairness-paper" }],
          "faults": {{faults}}
        }
        """);

    private static void AssertConserved(TopologyRunResult result)
    {
        foreach (var workflow in result.Workflows)
        {
            Assert.Equal(workflow.Offered, workflow.Completed + workflow.Dropped + workflow.Failed);
        }
    }

    private static Dictionary<int, WorkflowSecond> Seconds(TopologyRunResult result) =>
        result.TimeSeries.Where(s => s.Workflow == "read").ToDictionary(s => s.Second);

    private static double MeanLatency(TopologyRunResult result, int from, int until)
    {
        var seconds = result.TimeSeries.Where(s => s.Workflow == "read" && s.Second >= from && s.Second < until && s.MeanLatencyMs is not null).ToList();
        return seconds.Sum(s => s.MeanLatencyMs!.Value * s.Completed) / seconds.Sum(s => s.Completed);
    }

    private void Print(Dictionary<int, WorkflowSecond> seconds)
    {
        foreach (var (second, bin) in seconds.OrderBy(p => p.Key))
        {
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{second,3}: offered {bin.Offered}, completed {bin.Completed}, dropped {bin.Dropped}, failed {bin.Failed}, mean {bin.MeanLatencyMs:0.0} ms"));
        }
    }
}
