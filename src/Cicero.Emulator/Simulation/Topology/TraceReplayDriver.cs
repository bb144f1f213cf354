// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Feeds a replay plan's requests (Traces.Replay's TraceReplayPlan, which sits above the simulation) into a
/// <see cref="TopologySimulation"/> through one enumerator: open loop (each request at its arrival divided by the speed-up, or spaced
/// apart for isolation) or closed loop (N clients taking requests in trace order). Only the next request is held, so
/// memory does not grow with the trace.
/// </summary>
internal sealed class TraceReplayDriver : IDisposable
{
    private readonly IEnumerator<TraceReplayRequest> _requests;
    private bool _hasNext;

    public TraceReplayDriver(IReadOnlyList<string> workflowNames, IEnumerable<TraceReplayRequest> requests, int closedLoopClients, double speedUp, double isolationGapSeconds, Func<TraceReplayRequest, double?>? deadlineMs)
    {
        WorkflowNames = workflowNames;
        ClosedLoopClients = closedLoopClients;
        SpeedUp = speedUp;
        IsolationGapSeconds = isolationGapSeconds;
        DeadlineMs = deadlineMs;
        _requests = requests.GetEnumerator();
        _hasNext = _requests.MoveNext();
    }

    /// <summary>Gets the names of the plan's workflows, indexed by <see cref="TraceReplayRequest.Workflow"/>.</summary>
    public IReadOnlyList<string> WorkflowNames { get; }

    /// <summary>Gets the number of closed-loop clients; 0 for open loop.</summary>
    public int ClosedLoopClients { get; }

    public double SpeedUp { get; }

    /// <summary>Gets the spacing of open-loop arrivals when positive (request i at i x gap), replacing the recorded times.</summary>
    public double IsolationGapSeconds { get; }

    public Func<TraceReplayRequest, double?>? DeadlineMs { get; }

    /// <summary>Gets or sets a value indicating whether request deadlines are soft (see <see cref="SimRequest.SoftDeadline"/>).</summary>
    public bool SoftDeadlines { get; set; }

    /// <summary>Gets or sets an observer told of every request's outcome: the request, completed, latency in ms.</summary>
    public Action<SimRequest, bool, double>? Observer { get; set; }

    /// <summary>Gets or sets each request's own end-to-end estimate, if any.</summary>
    public Func<TraceReplayRequest, ProgressDelta?>? Estimate { get; set; }

    /// <summary>Gets or sets what hears the count of requests taken, every <see cref="ProgressEvery"/> requests.</summary>
    public IProgress<long>? Progress { get; set; }

    /// <summary>How many requests pass between two <see cref="Progress"/> reports.</summary>
    public const int ProgressEvery = 1024;

    private long _taken;

    /// <summary>Gets a value indicating whether every request has been offered.</summary>
    public bool Exhausted => !_hasNext;

    /// <summary>Gets the next request without taking it.</summary>
    public TraceReplayRequest Peek => _requests.Current;

    /// <summary>Takes the next request.</summary>
    public bool TryTake(out TraceReplayRequest request)
    {
        if (!_hasNext)
        {
            request = default;
            return false;
        }

        request = _requests.Current;
        _hasNext = _requests.MoveNext();
        if (++_taken % ProgressEvery == 0 || !_hasNext)
        {
            Progress?.Report(_taken);
        }

        return true;
    }

    /// <summary>Gets the run time, seconds, at which an open-loop request arrives.</summary>
    public double ArrivalSeconds(in TraceReplayRequest request) =>
        IsolationGapSeconds > 0 ? request.Sequence * IsolationGapSeconds : request.ArrivalSeconds / SpeedUp;

    public void Dispose() => _requests.Dispose();
}
