// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Traces.Replay;

/// <summary>
/// A trace ready to replay on the emulator: a scenario skeleton (workflows on the default topology, no workloads or
/// configurations yet) and the requests, each with its arrival, workflow and own costs, streamed from the trace.
/// </summary>
/// <remarks>
/// Runners replay it open loop (each request at <see cref="TraceReplayRequest.ArrivalSeconds"/>) or closed loop (N
/// clients each taking the next request in <see cref="TraceReplayRequest.Sequence"/> order when their last one ends).
/// <see cref="Requests"/> streams, so a multi-GB trace replays in constant memory; <see cref="CollectArrivalSeconds"/>
/// materializes arrival lists for small traces. Safe to read from several threads; each enumeration of
/// <see cref="Requests"/> enumerates the source trace again.
/// </remarks>
public sealed class TraceReplayPlan
{
    private readonly Dictionary<(string Tenant, string Operation), int> _index;
    private readonly IEnumerable<TraceRequest> _trace;
    private readonly TraceCostModel _costModel;

    internal TraceReplayPlan(
        ScenarioSpec scenario,
        IReadOnlyList<TraceWorkflow> workflows,
        Dictionary<(string Tenant, string Operation), int> index,
        IEnumerable<TraceRequest> trace,
        TraceCostModel costModel,
        double timeScale,
        long requestCount,
        double durationSeconds)
    {
        Scenario = scenario;
        Workflows = workflows;
        _index = index;
        _trace = trace;
        _costModel = costModel;
        TimeScale = timeScale;
        RequestCount = requestCount;
        DurationSeconds = durationSeconds;
    }

    /// <summary>
    /// Gets the scenario skeleton: name, duration (covering the last arrival), no warm-up, the default topology's
    /// services and routes (<see cref="DefaultTopology"/>), one workflow per <see cref="Workflows"/> entry in the same order, and empty
    /// workloads and configurations for the caller to fill.
    /// </summary>
    public ScenarioSpec Scenario { get; }

    /// <summary>Gets the workflows, in order of their first request.</summary>
    public IReadOnlyList<TraceWorkflow> Workflows { get; }

    /// <summary>Gets the time scale the arrivals were divided by.</summary>
    public double TimeScale { get; }

    /// <summary>Gets how many requests the trace has.</summary>
    public long RequestCount { get; }

    /// <summary>Gets the run's length, seconds: the last arrival, rounded down, plus one.</summary>
    public double DurationSeconds { get; }

    /// <summary>Gets the requests in trace order, streamed from the source trace at each enumeration.</summary>
    /// <exception cref="InvalidOperationException">During enumeration: the source gave a request of a workflow the plan does not know.</exception>
    public IEnumerable<TraceReplayRequest> Requests => Stream();

    /// <summary>Materializes the arrival times per workflow, seconds on the run's timeline, in order.</summary>
    /// <returns>Arrival lists by workflow name; every workflow has one.</returns>
    public IReadOnlyDictionary<string, IReadOnlyList<double>> CollectArrivalSeconds()
    {
        var lists = new List<double>[Workflows.Count];
        for (var w = 0; w < lists.Length; w++)
        {
            lists[w] = new List<double>((int)Math.Min(Workflows[w].Requests, int.MaxValue));
        }

        foreach (var request in Requests)
        {
            lists[request.Workflow].Add(request.ArrivalSeconds);
        }

        var result = new Dictionary<string, IReadOnlyList<double>>(StringComparer.Ordinal);
        for (var w = 0; w < lists.Length; w++)
        {
            result.Add(Workflows[w].Name, lists[w]);
        }

        return result;
    }

    private IEnumerable<TraceReplayRequest> Stream()
    {
        long sequence = 0;
        foreach (var request in _trace)
        {
            if (!_index.TryGetValue((request.Tenant, request.Operation), out var workflow))
            {
                throw new InvalidOperationException($"Request {sequence} has tenant '{request.Tenant}' and operation '{request.Operation}', which the plan did not see; the trace changed since it was planned.");
            }

            yield return new TraceReplayRequest(sequence++, TraceReplayPlanner.Seconds(request.ArrivalMs, TimeScale), workflow, _costModel.Evaluate(request));
        }
    }
}
