// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>One second of one workflow's time series: arrivals by arrival time, outcomes by the time they happened.</summary>
/// <param name="Second">The second, from the start of the run (second s covers [s, s + 1)).</param>
/// <param name="Workflow">The workflow.</param>
/// <param name="Offered">Requests that arrived.</param>
/// <param name="Completed">Requests that completed: the throughput.</param>
/// <param name="Dropped">Requests dropped.</param>
/// <param name="Failed">Requests that failed (timeouts included).</param>
/// <param name="MeanLatencyMs">The mean latency of the requests completed in the second; null when none did.</param>
public sealed record WorkflowSecond(int Second, string Workflow, long Offered, long Completed, long Dropped, long Failed, double? MeanLatencyMs);
