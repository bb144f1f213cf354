// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Workloads;

/// <summary>
/// Bursty load: an underlying rate during on periods and nothing during off periods, alternating from the time the
/// underlying rate first switches on.
/// </summary>
/// <remarks>Immutable and thread-safe.</remarks>
public sealed class OnOffRate : IRateFunction
{
    private readonly IRateFunction _rate;
    private readonly double _origin;
    private readonly double _on;
    private readonly double _period;

    /// <summary>Creates the rate.</summary>
    /// <param name="rate">The rate during on periods.</param>
    /// <param name="origin">When the first on period starts, seconds.</param>
    /// <param name="onSeconds">How long each on period lasts.</param>
    /// <param name="offSeconds">How long each off period lasts.</param>
    /// <exception cref="ArgumentOutOfRangeException">A duration is not positive.</exception>
    public OnOffRate(IRateFunction rate, double origin, double onSeconds, double offSeconds)
    {
        ArgumentNullException.ThrowIfNull(rate);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(onSeconds);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(offSeconds);
        _rate = rate;
        _origin = origin;
        _on = onSeconds;
        _period = onSeconds + offSeconds;
    }

    /// <inheritdoc />
    public double ValueAt(double seconds) => IsOn(seconds) ? _rate.ValueAt(seconds) : 0;

    /// <inheritdoc />
    public double NextChangeAfter(double seconds)
    {
        var underlying = _rate.NextChangeAfter(seconds);

        // While the underlying rate is 0 the on/off phases change nothing; reporting them would keep an arrival process
        // stepping through empty phases forever after the workload stops.
        if (_rate.ValueAt(seconds) == 0)
        {
            return underlying;
        }

        if (seconds < _origin)
        {
            return Math.Min(underlying, _origin);
        }

        var cycle = Math.Floor((seconds - _origin) / _period);
        var phaseStart = _origin + (cycle * _period);
        var boundary = seconds < phaseStart + _on ? phaseStart + _on : phaseStart + _period;

        // Floating-point rounding can leave the boundary at (not after) the current time; step a whole phase on.
        if (boundary <= seconds)
        {
            boundary += _period;
        }

        return Math.Min(underlying, boundary);
    }

    private bool IsOn(double seconds) =>
        seconds >= _origin && (seconds - _origin) - (Math.Floor((seconds - _origin) / _period) * _period) < _on;
}
