// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Numerics;

namespace Cicero.Emulator.Measurement;

/// <summary>
/// A log-linear bucketed histogram of non-negative integer values (latencies in microseconds, say), in the manner of
/// HdrHistogram: fixed memory, a bounded relative error for every percentile, and mergeable.
/// </summary>
/// <remarks>
/// <para>
/// Values below 2^<see cref="PrecisionBits"/> each have their own bucket and are exact. Above that, every octave
/// [2^k, 2^(k+1)) is cut into 2^(<see cref="PrecisionBits"/> - 1) equal buckets, so a bucket is never wider than
/// 2^(1 - <see cref="PrecisionBits"/>) times its lower bound. A percentile is reported as the middle of the bucket
/// holding the value of that rank, which is therefore within <see cref="RelativeError"/> = 2^-<see cref="PrecisionBits"/>
/// of the exact nearest-rank percentile (0.78% at the default 7 bits). The buckets cover the whole range of
/// <see cref="long"/>, so nothing is ever out of range: 1 µs to hours (and far beyond) costs about 30 KB at 7 bits.
/// </para>
/// <para>
/// Counts, minimum, maximum and sum are exact; results depend only on the values recorded, not on their order, so
/// merged histograms equal one histogram of every value. Not thread-safe: record from one thread, or one histogram
/// per thread merged with <see cref="Add(LatencyHistogram)"/>.
/// </para>
/// </remarks>
public sealed class LatencyHistogram
{
    /// <summary>The default precision: 7 bits, a relative error of at most 1/128 (0.78%).</summary>
    public const int DefaultPrecisionBits = 7;

    private readonly long[] _counts;
    private readonly int _linearBuckets;
    private readonly int _halfBuckets;
    private long _count;
    private long _min = long.MaxValue;
    private long _max;
    private Int128 _sum;

    /// <summary>Creates an empty histogram.</summary>
    /// <param name="precisionBits">
    /// Sub-bucket bits, in [2, 16]; the relative error of a percentile is at most 2^-<paramref name="precisionBits"/>.
    /// </param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="precisionBits"/> is outside [2, 16].</exception>
    public LatencyHistogram(int precisionBits = DefaultPrecisionBits)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(precisionBits, 2);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(precisionBits, 16);
        PrecisionBits = precisionBits;
        _linearBuckets = 1 << precisionBits;
        _halfBuckets = _linearBuckets / 2;

        // Octaves above the linear range: values of 64 - 1 bits, the top one being 2^62 .. 2^63 - 1.
        var octaves = 63 - precisionBits;
        _counts = new long[_linearBuckets + (octaves * _halfBuckets)];
    }

    /// <summary>Gets the sub-bucket bits the histogram was created with.</summary>
    public int PrecisionBits { get; }

    /// <summary>Gets the bound on the relative error of a percentile: 2^-<see cref="PrecisionBits"/>.</summary>
    public double RelativeError => 1.0 / _linearBuckets;

    /// <summary>Gets the number of values recorded.</summary>
    public long Count => _count;

    /// <summary>Gets the smallest value recorded; 0 when empty.</summary>
    public long Min => _count == 0 ? 0 : _min;

    /// <summary>Gets the largest value recorded; 0 when empty.</summary>
    public long Max => _max;

    /// <summary>Gets the exact mean of the values recorded; NaN when empty.</summary>
    public double Mean => _count == 0 ? double.NaN : (double)_sum / _count;

    /// <summary>Records a value.</summary>
    /// <param name="value">The value, >= 0.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> is negative.</exception>
    public void Record(long value) => Record(value, 1);

    /// <summary>Records a value <paramref name="count"/> times.</summary>
    /// <param name="value">The value, >= 0.</param>
    /// <param name="count">How many times, >= 0.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> or <paramref name="count"/> is negative.</exception>
    public void Record(long value, long count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(value);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count == 0)
        {
            return;
        }

        _counts[IndexOf(value)] += count;
        _count += count;
        _sum += (Int128)value * count;
        _min = Math.Min(_min, value);
        _max = Math.Max(_max, value);
    }

    /// <summary>Adds every value recorded in <paramref name="other"/> to this histogram.</summary>
    /// <param name="other">A histogram with the same <see cref="PrecisionBits"/>.</param>
    /// <exception cref="ArgumentException">The precisions differ.</exception>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (other.PrecisionBits != PrecisionBits)
        {
            throw new ArgumentException($"Cannot merge a histogram of {other.PrecisionBits} precision bits into one of {PrecisionBits}.", nameof(other));
        }

        if (other._count == 0)
        {
            return;
        }

        for (var i = 0; i < _counts.Length; i++)
        {
            _counts[i] += other._counts[i];
        }

        _count += other._count;
        _sum += other._sum;
        _min = Math.Min(_min, other._min);
        _max = Math.Max(_max, other._max);
    }

    /// <summary>Forgets every value.</summary>
    public void Reset()
    {
        Array.Clear(_counts);
        _count = 0;
        _sum = 0;
        _min = long.MaxValue;
        _max = 0;
    }

    /// <summary>
    /// Gets the value at <paramref name="quantile"/>: the middle of the bucket holding the nearest-rank value (rank
    /// ⌈q·n⌉, at least 1), clamped to [<see cref="Min"/>, <see cref="Max"/>], so quantile 0 is the minimum and 1 the maximum.
    /// </summary>
    /// <param name="quantile">A quantile in [0, 1], e.g. 0.99.</param>
    /// <returns>The value, within <see cref="RelativeError"/> of the exact one; NaN when empty.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="quantile"/> is outside [0, 1].</exception>
    public double ValueAtQuantile(double quantile)
    {
        if (!(quantile >= 0 && quantile <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(quantile), quantile, "Must be in [0, 1].");
        }

        if (_count == 0)
        {
            return double.NaN;
        }

        if (quantile == 0)
        {
            return _min;
        }

        var rank = NearestRank(quantile, _count);
        var seen = 0L;
        for (var i = 0; i < _counts.Length; i++)
        {
            seen += _counts[i];
            if (seen >= rank)
            {
                var (low, high) = BoundsOf(i);
                var middle = low + ((high - low) / 2.0);
                return Math.Clamp(middle, _min, _max);
            }
        }

        Debug.Fail("The counts add up to Count, so some bucket reaches every rank.");
        return _max;
    }

    /// <summary>
    /// Gets the nearest rank ⌈q·n⌉ (at least 1). A product that is an integer in exact arithmetic can come out a hair
    /// above it in binary (0.07 × 100 = 7.000000000000001), which would skip a rank; such products count as integers.
    /// </summary>
    internal static long NearestRank(double quantile, long count)
    {
        var product = quantile * count;
        var rounded = Math.Round(product);
        var rank = Math.Abs(product - rounded) <= 1e-12 * Math.Max(1, product) ? rounded : Math.Ceiling(product);
        return Math.Clamp((long)rank, 1, count);
    }

    /// <summary>Gets the bucket of a value.</summary>
    internal int IndexOf(long value)
    {
        if (value < _linearBuckets)
        {
            return (int)value;
        }

        // value has b bits, b > PrecisionBits; keep its top PrecisionBits bits.
        var shift = (64 - BitOperations.LeadingZeroCount((ulong)value)) - PrecisionBits;
        var top = (int)(value >> shift);
        Debug.Assert(top >= _halfBuckets && top < _linearBuckets, "The top bits of a value past the linear range have their high bit set.");
        return _linearBuckets + ((shift - 1) * _halfBuckets) + (top - _halfBuckets);
    }

    /// <summary>Gets the smallest and largest value of a bucket.</summary>
    internal (long Low, long High) BoundsOf(int index)
    {
        if (index < _linearBuckets)
        {
            return (index, index);
        }

        var shift = ((index - _linearBuckets) / _halfBuckets) + 1;
        var top = ((index - _linearBuckets) % _halfBuckets) + _halfBuckets;
        var low = (long)top << shift;

        // top < 2^PrecisionBits and shift <= 63 - PrecisionBits, so the top bucket ends exactly at long.MaxValue.
        return (low, low + ((1L << shift) - 1));
    }
}
