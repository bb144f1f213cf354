// SPDX-License-Identifier: Apache-2.0

using HdrHistogram;

namespace Cicero.Emulator.Measurement;

/// <summary>
/// Records latencies (or any non-negative values) in fixed memory, whatever the run's length, on an HdrHistogram with
/// three significant digits: percentiles within 0.1% of the exact ones; count, mean and maximum exact. Recorders merge,
/// so per-thread or per-process recorders add up to the recorder of all their values.
/// </summary>
/// <remarks>
/// Values are stored as integer multiples of <see cref="Resolution"/> (1 µs for milliseconds by default), up to
/// <see cref="Highest"/>; a larger value is recorded as <see cref="Highest"/> and counted in <see cref="Clamped"/>, and
/// the exact maximum still reports it. Not thread-safe: one writer at a time (the live runner's collector).
/// </remarks>
public sealed class LatencyRecorder
{
    private readonly LongHistogram _histogram;
    private readonly long _highestUnits;
    private double _sum;
    private double _max = double.NaN;

    /// <summary>Creates a recorder.</summary>
    /// <param name="resolution">The smallest difference kept, in the values' unit (0.001: 1 µs for milliseconds).</param>
    /// <param name="highest">The largest value tracked exactly, in the values' unit (a day of milliseconds by default).</param>
    /// <exception cref="ArgumentOutOfRangeException">The resolution or the range is not positive and finite, or spans more than 2^50 steps.</exception>
    public LatencyRecorder(double resolution = 0.001, double highest = 86_400_000)
    {
        if (!(resolution > 0 && double.IsFinite(resolution)))
        {
            throw new ArgumentOutOfRangeException(nameof(resolution), resolution, "Must be positive and finite.");
        }

        if (!(highest > resolution && highest / resolution <= 1L << 50))
        {
            throw new ArgumentOutOfRangeException(nameof(highest), highest, "Must be above the resolution and within 2^50 steps of it.");
        }

        Resolution = resolution;
        Highest = highest;
        _highestUnits = (long)Math.Ceiling(highest / resolution);
        _histogram = new LongHistogram(Math.Max(2, _highestUnits), 3);
    }

    /// <summary>Gets the smallest difference kept between values.</summary>
    public double Resolution { get; }

    /// <summary>Gets the largest value tracked exactly.</summary>
    public double Highest { get; }

    /// <summary>Gets the number of values recorded.</summary>
    public long Count => _histogram.TotalCount;

    /// <summary>Gets the number of values above <see cref="Highest"/>, recorded as <see cref="Highest"/>.</summary>
    public long Clamped { get; private set; }

    /// <summary>Records one value; a negative or NaN value is recorded as zero.</summary>
    /// <param name="value">The value, in the recorder's unit.</param>
    public void Record(double value)
    {
        var clean = double.IsNaN(value) || value < 0 ? 0 : value;
        if (clean > Highest)
        {
            Clamped++;
        }

        var units = (long)Math.Round(Math.Min(clean, Highest) / Resolution);
        _histogram.RecordValue(Math.Min(units, _highestUnits));
        _sum += clean;
        _max = double.IsNaN(_max) ? clean : Math.Max(_max, clean);
    }

    /// <summary>Adds every value of <paramref name="other"/> to this recorder.</summary>
    /// <param name="other">A recorder with the same resolution and range.</param>
    /// <exception cref="ArgumentException">The recorders have different resolutions or ranges.</exception>
    public void Merge(LatencyRecorder other)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (other.Resolution != Resolution || other.Highest != Highest)
        {
            throw new ArgumentException($"Cannot merge a recorder of resolution {other.Resolution} and range {other.Highest} into one of {Resolution} and {Highest}.", nameof(other));
        }

        _histogram.Add(other._histogram);
        _sum += other._sum;
        Clamped += other.Clamped;
        _max = double.IsNaN(_max) ? other._max : double.IsNaN(other._max) ? _max : Math.Max(_max, other._max);
    }

    /// <summary>Gets the value at <paramref name="quantile"/> (in [0, 1]); NaN when empty.</summary>
    /// <param name="quantile">The quantile.</param>
    /// <returns>The value, in the recorder's unit.</returns>
    public double ValueAtQuantile(double quantile)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(quantile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(quantile, 1);
        if (Count == 0)
        {
            return double.NaN;
        }

        // HdrHistogram reports the highest value equivalent to the bucket's; the exact maximum bounds it from above.
        return Math.Min(_histogram.GetValueAtPercentile(quantile * 100) * Resolution, _max);
    }

    /// <summary>Summarises the values: exact count, mean and maximum; percentiles within the histogram's precision.</summary>
    /// <returns>The summary; NaN statistics when empty.</returns>
    public DistributionSummary Summarize() => Count == 0
        ? new DistributionSummary(0, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN)
        : new DistributionSummary(Count, _sum / Count, ValueAtQuantile(0.5), ValueAtQuantile(0.95), ValueAtQuantile(0.99), ValueAtQuantile(0.999), _max);
}
