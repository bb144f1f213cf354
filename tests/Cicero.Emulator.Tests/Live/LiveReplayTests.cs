// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Live;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Tests.Traces;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.Emulator.Tests.Live;

/// <summary>Trace replay in the live runner: real gRPC servers on 127.0.0.1, a bounded generated trace.</summary>
[Collection(LiveRuns.Name)]
public sealed class LiveReplayTests(Xunit.Abstractions.ITestOutputHelper output)
{
    private const int Requests = 240;

    [Fact]
    public async Task ReplayAsync_OpenLoop_OffersEveryRequestOfEachWorkflowAndConserves()
    {
        var trace = SimulatedReplayTests.Generate(Requests, seed: 3);
        var plan = SmallTopology(TraceReplayPlanner.Create(trace));

        var result = await LiveTopologyRunner.ReplayAsync(plan, new ConfigurationSpec { Name = "rc" }, new LiveReplayOptions { SpeedUp = 2 })
            .WaitAsync(TimeSpan.FromMinutes(2));

        output.WriteLine($"{result.EndSeconds:0.0} s; " + string.Join(", ", result.Workflows.Select(w => $"{w.Workflow} {w.Completed}/{w.Offered}")));
        foreach (var workflow in plan.Workflows)
        {
            var expected = trace.Count(r => $"{r.Tenant}.{r.Operation}" == workflow.Name);
            var run = result[workflow.Name];
            Assert.Equal(expected, run.Offered);
            Assert.Equal(run.Offered, run.Completed + run.Dropped + run.Failed);
        }

        Assert.Equal(Requests, result.Workflows.Sum(w => w.Offered));
        Assert.True(result.Workflows.Sum(w => w.Completed) >= Requests * 0.95, "a lightly loaded topology completes nearly everything");

        // Open loop keeps the trace's timeline: the last arrival is about 20 ms x 240 / 2 = 2.4 s in.
        var lastArrival = trace[^1].ArrivalMs / 1000 / 2;
        Assert.InRange(result.EndSeconds, lastArrival, lastArrival + 30);
    }

    [Fact]
    public async Task ReplayAsync_ClosedLoop_EveryRequestOnce()
    {
        var trace = SimulatedReplayTests.Generate(Requests, seed: 4);
        var plan = SmallTopology(TraceReplayPlanner.Create(trace));

        var result = await LiveTopologyRunner.ReplayAsync(plan, new ConfigurationSpec { Name = "rc" }, new LiveReplayOptions { ClosedLoopClients = 4 })
            .WaitAsync(TimeSpan.FromMinutes(2));

        Assert.Equal(Requests, result.Workflows.Sum(w => w.Offered));
        Assert.All(result.Workflows, w => Assert.Equal(w.Offered, w.Completed + w.Dropped + w.Failed));
        Assert.Throws<ArgumentException>(() => { _ = LiveTopologyRunner.ReplayAsync(plan, new ConfigurationSpec { Name = "x" }, new LiveReplayOptions { ClosedLoopClients = 0 }); });
    }

    [Fact]
    public async Task ReplayAsync_TraceFailingHalfWay_ReportsTheTraceErrorWithoutHanging()
    {
        // Planning reads the trace once; the replay reads it again, and this time it breaks after 60 requests.
        var trace = new BreaksOnSecondRead(SimulatedReplayTests.Generate(Requests, seed: 4), after: 60);
        var plan = SmallTopology(TraceReplayPlanner.Create(trace));

        var error = await Assert.ThrowsAsync<TraceFormatException>(() =>
            LiveTopologyRunner.ReplayAsync(plan, new ConfigurationSpec { Name = "rc" }, new LiveReplayOptions { SpeedUp = 4 }).WaitAsync(TimeSpan.FromMinutes(2)));

        Assert.Contains("broken", error.Message, StringComparison.Ordinal);
    }

    /// <summary>The default topology cut to 2 FE, 1 Auth, 2 PS and 3 BS, so a test starts 8 servers rather than 35.</summary>
    private static TraceReplayPlan SmallTopology(TraceReplayPlan plan)
    {
        foreach (var service in plan.Scenario.Services!)
        {
            service.Instances = service.Name switch
            {
                "auth" => 1,
                "bs" => 3,
                _ => 2,
            };
        }

        return plan;
    }

    private sealed class BreaksOnSecondRead(List<TraceRequest> requests, int after) : IEnumerable<TraceRequest>
    {
        private int _reads;

        public IEnumerator<TraceRequest> GetEnumerator()
        {
            var read = ++_reads;
            for (var i = 0; i < requests.Count; i++)
            {
                if (read > 1 && i == after)
                {
                    throw new TraceFormatException("trace.csv", i + 3, "arrival_ms", "broken on purpose");
                }

                yield return requests[i];
            }
        }

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
    }
}
