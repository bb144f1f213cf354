// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>One trace request ready for a runner: when it arrives, which workflow it belongs to, and its own work.</summary>
/// <param name="Sequence">Its 0-based position in the trace; closed-loop clients take requests in this order.</param>
/// <param name="ArrivalSeconds">Its arrival on the run's timeline, seconds: the recorded arrival divided by the time scale.</param>
/// <param name="Workflow">The index of its workflow in the replay plan's workflows (Traces.Replay's <c>TraceReplayPlan.Workflows</c>).</param>
/// <param name="Costs">Its fan-out and service times (from trace hints, else from its sizes).</param>
public readonly record struct TraceReplayRequest(long Sequence, double ArrivalSeconds, int Workflow, TraceStageCosts Costs);
