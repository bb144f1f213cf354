// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Emulator.Simulation.Topology;

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

    /// <summary>
    /// Gets or sets a value indicating whether the requests' deadlines are soft: they guide scheduling (EDF, LSTF) and
    /// admission (deadline-feasibility drops), but calls do not time out when a deadline passes, so a late request
    /// completes late (LND above 1) rather than failing. When false, as in scenario runs, every call's timeout is cut to
    /// the deadline's remaining time.
    /// </summary>
    /// <value><see langword="false"/>.</value>
    public bool SoftDeadlines { get; set; }

    /// <summary>
    /// Gets or sets each request's own end-to-end estimate (total service time in seconds and load, as Cicero's progress
    /// metrics count them), or null for none. It replaces the workflow's learned estimate for that request, which LSTF
    /// uses for the remaining service time; without it every request of a workflow gets the workflow's average.
    /// </summary>
    public Func<TraceReplayRequest, ProgressDelta?>? EstimatedTotal { get; set; }

    /// <summary>
    /// Gets or sets what hears how many of the plan's requests the replay has offered so far: every 1,024 requests and
    /// at the last, on the simulation's thread (keep it cheap, e.g. store the count for a progress bar to read).
    /// </summary>
    /// <value>None.</value>
    public IProgress<long>? Progress { get; set; }

    /// <summary>Gets or sets the seed of the run (routing, entry instances); the plan scenario's seed when null.</summary>
    public int? Seed { get; set; }
}
