// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Drives a trace replay in a run: open-loop arrivals at recorded times, or closed-loop clients in trace order.</summary>
internal sealed class ReplayLoad
{
    private static readonly Action<object?> OnReplayArrival = static state => ((ReplayLoad)state!).Arrive();
    private static readonly Action<object?> OnReplayClientSend = static state => ((ReplayClientState)state!).Load.ClientSend(((ReplayClientState)state!).Number);
    private static readonly long MinimumClientGapTicks = TimeSpan.FromMilliseconds(1).Ticks;

    private readonly TopologySimulation _simulation;
    private readonly TraceReplayDriver _replay;
    private readonly WorkflowDef[] _workflows;
    private readonly Random _random;
    private ReplayClientState[] _clients = [];

    public ReplayLoad(TopologySimulation simulation, TraceReplayDriver replay, int seed)
    {
        _simulation = simulation;
        _replay = replay;
        _workflows = new WorkflowDef[replay.WorkflowNames.Count];
        for (var w = 0; w < _workflows.Length; w++)
        {
            var name = replay.WorkflowNames[w];
            _workflows[w] = simulation.Compiled.Workflows.FirstOrDefault(d => d.Name == name)
                ?? throw new InvalidOperationException($"The scenario has no workflow '{name}' of the replay plan.");
        }

        _random = new Random(SeedStreams.Derive(seed, SeedStreams.FirstWorkload));
    }

    /// <summary>Schedules the first arrival, or every closed-loop client's first request.</summary>
    public void Start()
    {
        if (_replay.ClosedLoopClients == 0)
        {
            ScheduleArrival();
            return;
        }

        _clients = new ReplayClientState[_replay.ClosedLoopClients];
        for (var c = 0; c < _clients.Length; c++)
        {
            _clients[c] = new ReplayClientState(this, c);
            _simulation.Clock.ScheduleAt(_simulation.Now, OnReplayClientSend, _clients[c]);
        }
    }

    /// <summary>A replayed request has its outcome: the observer hears of it, and its closed-loop client sends the next.</summary>
    public void Done(SimRequest request, Outcome outcome)
    {
        var now = _simulation.Now;
        if (request.Trace is not null)
        {
            _replay.Observer?.Invoke(request, outcome.IsOk, (now - request.ArrivedAt) / (double)TimeSpan.TicksPerMillisecond);
        }

        if (request.ReplayClient >= 0)
        {
            // As a workload's client: the reply's and the next request's trips, and at least 1 ms.
            var gap = Math.Max(2 * _simulation.NetworkTicks, MinimumClientGapTicks);
            _simulation.Clock.ScheduleAt(now + gap, OnReplayClientSend, _clients[request.ReplayClient]);
        }
    }

    private void ScheduleArrival()
    {
        if (!_replay.Exhausted && !_simulation.Stopped)
        {
            _simulation.Clock.ScheduleAt(Math.Max(_simulation.Now, TopologySimulation.ToTicks(_replay.ArrivalSeconds(_replay.Peek))), OnReplayArrival, this);
        }
    }

    private void Arrive()
    {
        if (!_simulation.Stopped && _replay.TryTake(out var request))
        {
            Offer(request, client: -1);
        }

        ScheduleArrival();
    }

    private void ClientSend(int client)
    {
        if (!_simulation.Stopped && _replay.TryTake(out var request))
        {
            Offer(request, client);
        }
    }

    private void Offer(TraceReplayRequest trace, int client)
    {
        var workflow = _workflows[trace.Workflow];
        var entries = _simulation.Instances[workflow.Entry.Index];
        var entry = entries[_random.Next(entries.Length)];
        var partition = _random.Next(workflow.Partitions);
        var request = new SimRequest(_simulation, _simulation.NextRequestId(), workflow, partition, _simulation.Now, measured: true, client: null)
        {
            Trace = trace,
            DeadlineMs = _replay.DeadlineMs?.Invoke(trace),
            ReplayClient = client,
            SoftDeadline = _replay.SoftDeadlines,
            Estimate = _replay.Estimate?.Invoke(trace),
        };
        _simulation.Launch(entry, request);
    }

    /// <summary>A closed-loop replay client, as the state of its send events.</summary>
    private sealed class ReplayClientState(ReplayLoad load, int number)
    {
        public ReplayLoad Load { get; } = load;

        public int Number { get; } = number;
    }
}
