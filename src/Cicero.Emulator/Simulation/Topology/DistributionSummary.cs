// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Measurement;
using Cicero.Emulator.Simulation.ReplicaSelection;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Summary statistics of a sample: latencies in milliseconds, or latencies normalised by the deadline (LND, a ratio).
/// Made from a sorted sample (<see cref="Of(ReadOnlySpan{double})"/>: exact percentiles, interpolated linearly between
/// ranks, which the simulator uses because it keeps every latency anyway) or from a <see cref="LatencyHistogram"/>
/// (<see cref="Of(LatencyHistogram, double)"/>: percentiles within the histogram's relative error, for long or
/// distributed runs whose samples are too many to keep or live in several processes).
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

    /// <summary>Summarises a histogram, converting its integer unit with <paramref name="scale"/>.</summary>
    /// <param name="histogram">The histogram.</param>
    /// <param name="scale">What one unit of the histogram is in the summary's unit, e.g. 0.001 for microseconds to milliseconds.</param>
    /// <returns>The summary; the mean and maximum are exact, the percentiles within <see cref="LatencyHistogram.RelativeError"/>.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="scale"/> is not positive and finite.</exception>
    public static DistributionSummary Of(LatencyHistogram histogram, double scale = 1)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        if (!(scale > 0 && double.IsFinite(scale)))
        {
            throw new ArgumentOutOfRangeException(nameof(scale), scale, "Must be positive and finite.");
        }

        var empty = histogram.Count == 0;
        return new DistributionSummary(
            histogram.Count,
            histogram.Mean * scale,
            histogram.ValueAtQuantile(0.5) * scale,
            histogram.ValueAtQuantile(0.95) * scale,
            histogram.ValueAtQuantile(0.99) * scale,
            histogram.ValueAtQuantile(0.999) * scale,
            empty ? double.NaN : histogram.Max * scale);
    }
}
