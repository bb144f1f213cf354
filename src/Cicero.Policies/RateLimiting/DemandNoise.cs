// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// One resource's noise measures, kept at the weight of the long demand average: the variance of each interval's
/// demand about that average (and so the average's standard error, as if intervals were independent), the long
/// average of the load (held plus waiting) and the variance of its change from one interval to the next, and that
/// average as it stood one and two smoothing times ago.
/// </summary>
internal struct DemandNoise
{
    private double _demandVariance;
    private double _load;
    private double _loadChangeVariance;
    private double _lastLoad;
    private double _mark;
    private double _previousMark;
    private int _intervalsSinceMark;
    private int _intervalsPerMark;
    private int _intervalsCalm;

    // Never a bottleneck yet: calm from the start.
    public static DemandNoise Empty => new() { _load = double.NaN, _lastLoad = double.NaN, _mark = double.NaN, _previousMark = double.NaN, _intervalsCalm = int.MaxValue };

    /// <summary>Gets the standard error of the long demand average.</summary>
    public double StandardError { get; private set; }

    /// <summary>
    /// Gets whether the resource has not been a bottleneck for a whole smoothing time. Only then does noise excuse an
    /// average above the target: once a cut is in place, the change of regime it follows (a flood, and the cut
    /// itself) swells the variance, and excusing the overload's continuation on it releases the cut too early.
    /// </summary>
    public readonly bool Calm => _intervalsCalm >= _intervalsPerMark;

    /// <summary>Records an interval: its demand, the long average before it, its load, the average's weight, and how many intervals a smoothing time spans.</summary>
    public void Record(double demand, double averageBefore, double load, double weight, int intervalsPerMark)
    {
        if (!double.IsNaN(averageBefore))
        {
            var deviation = demand - averageBefore;
            _demandVariance = (1 - weight) * (_demandVariance + (weight * deviation * deviation));
        }

        // The variance of an exponentially weighted mean of independent samples: σ² · w / (2 − w).
        StandardError = Math.Sqrt(_demandVariance * weight / (2 - weight));
        _load = double.IsNaN(_load) ? load : _load + (weight * (load - _load));
        if (!double.IsNaN(_lastLoad))
        {
            var change = load - _lastLoad;
            _loadChangeVariance += weight * ((change * change) - _loadChangeVariance);
        }

        _lastLoad = load;
        _intervalsPerMark = intervalsPerMark;
        _intervalsCalm = _intervalsCalm == int.MaxValue ? int.MaxValue : _intervalsCalm + 1;
        if (++_intervalsSinceMark >= intervalsPerMark)
        {
            _intervalsSinceMark = 0;
            _previousMark = _mark;
            _mark = _load;
        }
    }

    /// <summary>Records that the resource is a bottleneck this interval.</summary>
    public void Congested() => _intervalsCalm = 0;

    /// <summary>
    /// Whether the load average grew, since it stood between one and two smoothing times ago, by more than
    /// <paramref name="confidence"/> standard deviations of the difference of two such averages plus <paramref name="floor"/>.
    /// </summary>
    public readonly bool BacklogGrowing(double confidence, double floor) =>
        !double.IsNaN(_previousMark) && _load - _previousMark > (confidence * Math.Sqrt(_loadChangeVariance * 2)) + floor;
}
