// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Driving a trace replay: open-loop arrivals at recorded times, or closed-loop clients in trace order.</summary>
public sealed partial class TopologySimulation
{
    private static readonly Action<object?> OnReplayArrival = static state => ((TopologySimulation)state!).ReplayArrive();
    private static readonly Action<object?> OnReplayClientSend = static state => ((ReplayClientState)state!).Simulation.ReplayClientSend(((ReplayClientState)state!).Number);

    private WorkflowDef[] _replayWorkflows = [];
    private ReplayClientState[] _replayClients = [];
    private Random? _replayRandom;

    private void StartReplay(TraceReplayDriver replay)
    {
        _replayWorkflows = new WorkflowDef[replay.WorkflowNames.Count];
        for (var w = 0; w < _replayWorkflows.Length; w++)
        {
            var name = replay.WorkflowNames[w];
            _replayWorkflows[w] = Compiled.Workflows.FirstOrDefault(d => d.Name == name)
                ?? throw new InvalidOperationException($"The scenario has no workflow '{name}' of the replay plan.");
        }

        _replayRandom = new Random(SeedStreams.Derive(_scenario.Seed, SeedStreams.FirstWorkload));
        if (replay.ClosedLoopClients == 0)
        {
            ScheduleReplayArrival(replay);
            return;
        }

        _replayClients = new ReplayClientState[replay.ClosedLoopClients];
        for (var c = 0; c < _replayClients.Length; c++)
        {
            _replayClients[c] = new ReplayClientState(this, c);
            Clock.ScheduleAt(Now, OnReplayClientSend, _replayClients[c]);
        }
    }

    private void ScheduleReplayArrival(TraceReplayDriver replay)
    {
        if (!replay.Exhausted && !Stopped)
        {
            Clock.ScheduleAt(Math.Max(Now, ToTicks(replay.ArrivalSeconds(replay.Peek))), OnReplayArrival, this);
        }
    }

    private void ReplayArrive()
    {
        var replay = _replay!;
        if (!Stopped && replay.TryTake(out var request))
        {
            OfferReplay(request, client: -1);
        }

        ScheduleReplayArrival(replay);
    }

    private void ReplayClientSend(int client)
    {
        if (!Stopped && _replay!.TryTake(out var request))
        {
            OfferReplay(request, client);
        }
    }

    private void ReplayDone(SimRequest request, Outcome outcome)
    {
        if (request.Trace is not null)
        {
            _replay!.Observer?.Invoke(request, outcome.IsOk, (Now - request.ArrivedAt) / (double)TimeSpan.TicksPerMillisecond);
        }

        if (request.ReplayClient >= 0)
        {
            // As a workload's client: the reply's and the next request's trips, and at least 1 ms.
            var gap = Math.Max(2 * NetworkTicks, MinimumClientGapTicks);
            Clock.ScheduleAt(Now + gap, OnReplayClientSend, _replayClients[request.ReplayClient]);
        }
    }

    private void OfferReplay(TraceReplayRequest trace, int client)
    {
        var now = Now;
        var workflow = _replayWorkflows[trace.Workflow];
        var random = _replayRandom!;
        var entries = Instances[workflow.Entry.Index];
        var entry = entries[random.Next(entries.Length)];
        var partition = random.Next(workflow.Partitions);
        var request = new SimRequest(this, ++_nextRequestId, workflow, partition, now, measured: true, client: null)
        {
            Trace = trace,
            DeadlineMs = _replay!.DeadlineMs?.Invoke(trace),
            ReplayClient = client,
            SoftDeadline = _replay.SoftDeadlines,
            Estimate = _replay.Estimate?.Invoke(trace),
        };
        _inFlight++;
        _metrics.Offered(request, Second(now));
        _timeouts.Add(request, now + RpcTimeoutTicks);
        new EntryFrame(entry, request).Start();
    }

    /// <summary>A closed-loop replay client, as the state of its send events.</summary>
    private sealed class ReplayClientState(TopologySimulation simulation, int number)
    {
        public TopologySimulation Simulation { get; } = simulation;

        public int Number { get; } = number;
    }
}
