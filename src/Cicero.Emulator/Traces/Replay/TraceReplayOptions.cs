// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Replay;

/// <summary>Options of <see cref="TraceReplayPlanner"/>.</summary>
public sealed class TraceReplayOptions
{
    /// <summary>Gets or sets the scenario's name.</summary>
    /// <value>"trace-replay".</value>
    public string ScenarioName { get; set; } = "trace-replay";

    /// <summary>
    /// Gets or sets how much faster than recorded the trace is replayed: arrivals on the run's timeline are the recorded
    /// ones divided by this (2 replays a 60 s trace in 30 s, at twice the load).
    /// </summary>
    /// <value>1.</value>
    public double TimeScale { get; set; } = 1;

    /// <summary>Gets or sets the partitions of every workflow's table (consistent hashing and block placement).</summary>
    /// <value>8, as the default scenario's read-write tenants.</value>
    public int Partitions { get; set; } = 8;

    /// <summary>Gets or sets the most workflows (tenant and operation pairs) a trace may have.</summary>
    /// <value>1000; a scenario with more is not practical to run or report.</value>
    public int MaxWorkflows { get; set; } = 1000;

    /// <summary>Gets or sets the model that turns sizes into service times.</summary>
    public TraceCostModel CostModel { get; set; } = new();
}
