// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Replay;

/// <summary>One configuration at one load level of the deadline experiment: a row of Table 5.4.</summary>
/// <param name="LoadLevel">The load level (speed-up, or clients in closed loop).</param>
/// <param name="Configuration">The configuration's name.</param>
/// <param name="Offered">Requests offered (the whole trace).</param>
/// <param name="Completed">Requests that completed; the LND figures are over these.</param>
/// <param name="Dropped">Requests dropped by Cicero (admission, deadline infeasible, queue full).</param>
/// <param name="TimedOut">Requests the client gave up on (the RPC timeout).</param>
/// <param name="LndMean">Mean latency normalized by the deadline over completed requests.</param>
/// <param name="LndP95">95th percentile LND.</param>
/// <param name="LndP99">99th percentile LND.</param>
/// <param name="LateFraction">Fraction of completed requests that finished after their deadline (LND above 1).</param>
public sealed record DeadlineExperimentRow(
    double LoadLevel,
    string Configuration,
    long Offered,
    long Completed,
    long Dropped,
    long TimedOut,
    double LndMean,
    double LndP95,
    double LndP99,
    double LateFraction)
{
    /// <summary>Gets the dropped requests by the reason Cicero gave (admission, deadline infeasible, queue full, ...).</summary>
    public IReadOnlyDictionary<string, long> DroppedByReason { get; init; } = new Dictionary<string, long>();

    /// <summary>Gets the requests that completed within their deadline (LND at most 1).</summary>
    public long OnTime { get; init; }

    /// <summary>Gets the goodput: the fraction of offered requests that completed within their deadline.</summary>
    public double Goodput => Offered == 0 ? 0 : (double)OnTime / Offered;

    /// <summary>Gets the fraction of offered requests dropped or timed out.</summary>
    public double DropFraction => Offered == 0 ? 0 : (double)(Dropped + TimedOut) / Offered;
}
