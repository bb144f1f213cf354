// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.Emulator.Tests.Traces;

public sealed class SimulatedReplayTests
{
    private static readonly ConfigurationSpec Baseline = new() { Name = "baseline", RateControl = false, Scheduler = "fifo" };

    [Fact]
    public void Run_OpenLoop_OffersEveryRequestOfEachWorkflowAndConserves()
    {
        var trace = Generate(600, seed: 3);
        var plan = TraceReplayPlanner.Create(trace);

        var result = SimulatedReplay.Run(plan, Baseline);

        var expected = trace.GroupBy(r => $"{r.Tenant}.{r.Operation}").ToDictionary(g => g.Key, g => (long)g.Count());
        Assert.Equal(expected.Count, result.Workflows.Count);
        foreach (var workflow in result.Workflows)
        {
            Assert.Equal(expected[workflow.Workflow], workflow.Offered);
            Assert.Equal(workflow.Offered, workflow.Completed + workflow.Dropped + workflow.Failed);
        }

        Assert.Equal(trace.Count, result.Requests);
        Assert.True(result.EndSeconds >= trace[^1].ArrivalMs / 1000, "the run lasts past the last recorded arrival");
    }

    [Fact]
    public void Run_SameSeed_IdenticalResults_OtherSeedDiffers()
    {
        var plan = TraceReplayPlanner.Create(Generate(400, seed: 5));
        var rc = new ConfigurationSpec { Name = "lstf", Scheduler = "lstf" };
        var options = new SimulatedReplayOptions { SpeedUp = 4, DeadlineMs = r => 200 + (r.Sequence % 7) };

        var first = SimulatedReplay.Run(plan, rc, options).ToJson();
        var second = SimulatedReplay.Run(plan, rc, options).ToJson();
        var other = SimulatedReplay.Run(plan, rc, new SimulatedReplayOptions { SpeedUp = 4, Seed = 99 }).ToJson();

        Assert.Equal(first, second);
        Assert.NotEqual(first, other);
    }

    [Fact]
    public void Run_ClosedLoop_EveryRequestOnceAndFasterWithMoreClients()
    {
        var trace = Generate(300, seed: 7);
        var plan = TraceReplayPlanner.Create(trace);

        var one = SimulatedReplay.Run(plan, Baseline, new SimulatedReplayOptions { ClosedLoopClients = 1 });
        var many = SimulatedReplay.Run(plan, Baseline, new SimulatedReplayOptions { ClosedLoopClients = 16 });

        Assert.Equal(trace.Count, one.Requests);
        Assert.Equal(trace.Count, many.Requests);
        Assert.Equal(trace.Count, one.Workflows.Sum(w => w.Completed));
        Assert.True(many.EndSeconds < one.EndSeconds / 4, $"16 clients took {many.EndSeconds} s, 1 client {one.EndSeconds} s");
    }

    [Fact]
    public void Run_PerRequestCostsAndDeadline_Applied()
    {
        // Two identical-sized reads on an idle topology, one hinted to cost 100 ms at the BS with fan-out 3.
        TraceRequest[] trace =
        [
            new(0, "t", "get", 0, 1000, 1, AuthMs: 1, PsMs: 1, BsMs: 1),
            new(5000, "t", "get", 0, 1000, 3, AuthMs: 1, PsMs: 1, BsMs: 100),
        ];
        var plan = TraceReplayPlanner.Create(trace);
        var latencies = new double[2];
        var options = new SimulatedReplayOptions { DeadlineMs = r => r.Sequence == 0 ? 10 : 1000 };

        var result = SimulatedReplay.RunCore(plan, Baseline, options, catalog: null, isolationGapSeconds: 0, (request, ok, ms) => latencies[request.Trace!.Value.Sequence] = ok ? ms : -1);

        var workflow = result["t.get"];
        Assert.Equal(2, workflow.Completed);
        Assert.InRange(latencies[0], 3, 20);
        Assert.InRange(latencies[1], 103, 130);
        Assert.Equal(latencies[0] / 10, workflow.Lnd!.Max < 1 ? workflow.Lnd.Max : latencies[0] / 10, 9);
        Assert.Equal(2, workflow.Lnd.Count);
        Assert.Equal(Math.Max(latencies[0] / 10, latencies[1] / 1000), workflow.Lnd.Max, 9);
    }

    /// <summary>A small trace of reads, writes and PS-local requests from four tenants, arrivals about 20 ms apart.</summary>
    internal static List<TraceRequest> Generate(int count, int seed)
    {
        var random = new Random(seed);
        var list = new List<TraceRequest>(count);
        double arrival = 0;
        string[] tenants = ["a", "b", "c", "d"];
        for (var i = 0; i < count; i++)
        {
            arrival += Math.Round(-Math.Log(1 - random.NextDouble()) * 20, 3);
            var tenant = tenants[random.Next(tenants.Length)];
            var kind = random.Next(3);
            list.Add(kind switch
            {
                0 => new TraceRequest(arrival, tenant, "get", 0, random.Next(1, 4 << 20), random.Next(1, 6)),
                1 => new TraceRequest(arrival, tenant, "put", random.Next(1, 2 << 20), 0, 1),
                _ => new TraceRequest(arrival, tenant, "meta", 64, 512, 0),
            });
        }

        return list;
    }
}
