// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.ReplicaSelection;

namespace Cicero.Emulator.Measurement;

/// <summary>
/// Summary statistics of a sample: latencies in milliseconds, or latencies normalised by the deadline (LND, a ratio).
/// Made from a sorted sample (<see cref="Of(ReadOnlySpan{double})"/>: exact percentiles, interpolated linearly between
/// ranks, which the simulator uses because it keeps every latency anyway) or from a
/// <see cref="Measurement.LatencyRecorder"/> (<see cref="Measurement.LatencyRecorder.Summarize"/>: an HdrHistogram, for
/// live runs and long replays whose samples are too many to keep or live in several processes).
/// </summary>
/// <param name="Count">The sample size.</param>
/// <param name="Mean">The mean; NaN for an empty sample.</param>
/// <param name="P50">The median.</param>
/// <param name="P95">The 95th percentile.</param>
/// <param name="P99">The 99th percentile.</param>
/// <param name="P999">The 99.9th percentile.</param>
/// <param name="Max">The largest value.</param>
public sealed record DistributionSummary(long Count, double Mean, double P50, double P95, double P99, double P999, double Max)
{
    /// <summary>Summarises a sorted sample.</summary>
    /// <param name="sorted">Values in ascending order.</param>
    /// <returns>The summary.</returns>
    public static DistributionSummary Of(ReadOnlySpan<double> sorted)
    {
        var sum = 0.0;
        foreach (var value in sorted)
        {
            sum += value;
        }

        return new DistributionSummary(
            sorted.Length,
            sorted.IsEmpty ? double.NaN : sum / sorted.Length,
            LatencyPercentiles.Of(sorted, 0.5),
            LatencyPercentiles.Of(sorted, 0.95),
            LatencyPercentiles.Of(sorted, 0.99),
            LatencyPercentiles.Of(sorted, 0.999),
            sorted.IsEmpty ? double.NaN : sorted[^1]);
    }
}
