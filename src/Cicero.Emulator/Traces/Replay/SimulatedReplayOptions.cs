// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Replay;

/// <summary>Options of <see cref="SimulatedReplay.Run"/>.</summary>
public sealed class SimulatedReplayOptions
{
    /// <summary>
    /// Gets or sets the number of closed-loop clients: each takes the next request in trace order as soon as its last one
    /// ends (plus the network trips, at least 1 ms), ignoring recorded arrivals. 0 replays open loop at the recorded
    /// arrivals.
    /// </summary>
    /// <value>0 (open loop).</value>
    public int ClosedLoopClients { get; set; }

    /// <summary>
    /// Gets or sets a further speed-up of open-loop arrivals on top of the plan's <see cref="TraceReplayPlan.TimeScale"/>:
    /// a request arrives at <see cref="TraceReplayRequest.ArrivalSeconds"/> divided by this. Lets one plan run at several
    /// load levels.
    /// </summary>
    /// <value>1.</value>
    public double SpeedUp { get; set; } = 1;

    /// <summary>
    /// Gets or sets each request's deadline in milliseconds (or <see langword="null"/> for none). A request's deadline wins
    /// over the workflow's and the configuration's.
    /// </summary>
    public Func<TraceReplayRequest, double?>? DeadlineMs { get; set; }

    /// <summary>Gets or sets the seed of the run (routing, entry instances); the plan scenario's seed when null.</summary>
    public int? Seed { get; set; }
}
