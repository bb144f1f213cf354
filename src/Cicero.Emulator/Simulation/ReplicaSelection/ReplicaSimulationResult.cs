// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>The outcome of one <see cref="ReplicaSimulation"/> run; latencies in milliseconds.</summary>
/// <param name="Selector">The selector's name.</param>
/// <param name="Seed">The seed of the run's random source.</param>
/// <param name="FluctuationInterval">T, the fluctuation interval.</param>
/// <param name="Generated">Primary requests generated.</param>
/// <param name="Completed">Primary requests whose response reached the client.</param>
/// <param name="Failed">Primary requests the selector failed (no replica to send to).</param>
/// <param name="Measured">Completed requests measured (completing after the warm-up).</param>
/// <param name="ReadRepairCopies">Extra copies sent for read repair; each was answered.</param>
/// <param name="Backlogged">Requests that waited in a replica group's backlog at least once.</param>
/// <param name="SimulatedTime">The virtual time when the last event ran.</param>
/// <param name="P50">The median latency.</param>
/// <param name="P99">The 99th percentile.</param>
/// <param name="P999">The 99.9th percentile.</param>
/// <param name="Mean">The mean latency.</param>
/// <param name="LowRateP99">
/// The 99th percentile over requests of the low-rate clients (those outside the demand skew's heavy set or the surge),
/// created after the surge started if there is one; NaN when every client is alike.
/// </param>
/// <param name="RateLimited">How many times a rate limiter found no token (C3 and rate-limited round robin; 0 for the others): the limiter redirected or held a request.</param>
/// <param name="QueueSamples">Server 0's queue (waiting plus in service) at each sample, every <see cref="ReplicaSimulationOptions.QueueSamplePeriod"/>; empty when not sampled.</param>
public sealed record ReplicaSimulationResult(
    string Selector,
    int Seed,
    TimeSpan FluctuationInterval,
    long Generated,
    long Completed,
    long Failed,
    long Measured,
    long ReadRepairCopies,
    long Backlogged,
    TimeSpan SimulatedTime,
    double P50,
    double P99,
    double P999,
    double Mean,
    double LowRateP99,
    long RateLimited,
    IReadOnlyList<int> QueueSamples)
{
    /// <summary>
    /// Gets how old, on average, the client's last response from the chosen server was when a request was sent there
    /// (after the warm-up): how stale the view a feedback-driven selector ranks by is. NaN if never measured.
    /// </summary>
    public double MeanFeedbackAgeMs { get; init; } = double.NaN;

    /// <summary>Gets a value indicating whether every generated request completed or was counted as failed.</summary>
    public bool Conserved => Generated == Completed + Failed;
}
