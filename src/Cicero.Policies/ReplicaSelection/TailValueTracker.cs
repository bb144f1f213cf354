// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// Wu's tail value adjustment (thesis §4.3.1, Algorithms 1 and 2): keeps recent samples of a metric and, every
/// interval, replaces the latest value by the 90th percentile when p99 ≥ α·p90, or by the 95th when p99.9 ≥ α·p95,
/// so one outlier does not swing a replica's score.
/// </summary>
/// <remarks>Bounded: a ring of the most recent samples. Not thread-safe.</remarks>
internal sealed class TailValueTracker(int capacity, double tailFactor)
{
    private readonly double[] _ring = new double[capacity];
    private readonly double[] _sorted = new double[capacity];
    private int _count;
    private int _next;
    private double _latest;
    private double? _adjusted;

    /// <summary>Gets the value to use: the latest sample, unless the last adjustment replaced it by a percentile.</summary>
    public double Value => _adjusted ?? _latest;

    public bool HasValue => _count > 0;

    public void Add(double sample)
    {
        _ring[_next] = sample;
        _next = (_next + 1) % _ring.Length;
        _count = Math.Min(_count + 1, _ring.Length);
        _latest = sample;
    }

    /// <summary>Recomputes the adjusted value from the samples kept (Algorithm 1, one interval).</summary>
    public void Adjust()
    {
        if (_count == 0)
        {
            return;
        }

        var sorted = _sorted.AsSpan(0, _count);
        _ring.AsSpan(0, _count).CopyTo(sorted);
        sorted.Sort();
        var p90 = Percentile(sorted, 90);
        var p95 = Percentile(sorted, 95);
        _adjusted = Percentile(sorted, 99) >= tailFactor * p90 ? p90
            : Percentile(sorted, 99.9) >= tailFactor * p95 ? p95
            : null;
    }

    /// <summary>Algorithm 2: the value at rank ⌈p/100 · n⌉ of the sorted samples.</summary>
    private static double Percentile(ReadOnlySpan<double> sorted, double percentile) =>
        sorted[Math.Clamp((int)Math.Ceiling(percentile / 100 * sorted.Length) - 1, 0, sorted.Length - 1)];
}
