// SPDX-License-Identifier: Apache-2.0

using System.Text.Json.Serialization;
using Cicero.Emulator.Measurement;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// One workflow's outcome over the measured window (requests that arrived after the warm-up): every offered request
/// is completed, dropped with a reason, or failed (timeouts are failures), and the counts add up.
/// </summary>
public sealed class WorkflowRunResult
{
    /// <summary>Gets the workflow.</summary>
    public required string Workflow { get; init; }

    /// <summary>Gets the requests offered by the workload.</summary>
    public long Offered { get; init; }

    /// <summary>Gets the requests the entry instance admitted.</summary>
    public long Admitted { get; init; }

    /// <summary>Gets the requests that completed.</summary>
    public long Completed { get; init; }

    /// <summary>Gets the requests dropped, with any reason.</summary>
    public long Dropped { get; init; }

    /// <summary>Gets the requests that failed, timeouts included.</summary>
    public long Failed { get; init; }

    /// <summary>Gets the requests that failed because a call (or the client) timed out.</summary>
    public long TimedOut { get; init; }

    /// <summary>Gets the drops by reason ("rate-limited", "deadline-infeasible", "queue-full", ...).</summary>
    public required IReadOnlyDictionary<string, long> DroppedByReason { get; init; }

    /// <summary>Gets the failures by reason ("timeout", "no-replica").</summary>
    public required IReadOnlyDictionary<string, long> FailedByReason { get; init; }

    /// <summary>Gets the completed requests per second of the measured window.</summary>
    public double Throughput { get; init; }

    /// <summary>Gets the offered requests per second of the measured window.</summary>
    public double OfferedRate { get; init; }

    /// <summary>Gets completed over offered (NaN when nothing was offered).</summary>
    public double CompletedFraction { get; init; }

    /// <summary>
    /// Gets entry admission ÷ bottleneck allowance, sampled each second of the measured window: the workflow's admitted
    /// rate at its entry over the entry rate its tightest downstream tier allows (that tier's Σσ ÷ its measured calls
    /// per admitted entry request), summed over the seconds the tier limits it. Above 1, the entry admits more than its
    /// bottleneck allows; null when no downstream tier limits the workflow.
    /// </summary>
    public double? AdmissionToAllowance { get; init; }

    /// <summary>Gets the end-to-end latency of completed requests, in milliseconds, as the client saw it.</summary>
    public required DistributionSummary LatencyMs { get; init; }

    /// <summary>Gets the latency normalised by the deadline of completed requests, when the workflow has a deadline.</summary>
    public DistributionSummary? Lnd { get; init; }

    /// <summary>Gets every completed request's latency in milliseconds, sorted, for simulated scenario runs; empty for replays and live runs, which record latencies in histograms (<see cref="Measurement.LatencyRecorder"/>). Not written to JSON.</summary>
    [JsonIgnore]
    public IReadOnlyList<double> LatenciesMs { get; init; } = [];
}
