// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Workloads;

/// <summary>
/// A value that is 0 before <c>start</c>, an initial value from then, changes at given step times, and is 0 again from
/// <c>stop</c>: a tenant that starts at t = 50 s and doubles at t = 60 s is (start 50, 100 rps, step 60 → 200 rps).
/// </summary>
/// <remarks>Immutable and thread-safe.</remarks>
public sealed class StepSchedule : IRateFunction
{
    private readonly double _start;
    private readonly double _stop;
    private readonly double _initial;
    private readonly (double At, double Value)[] _steps;

    /// <summary>Creates a schedule.</summary>
    /// <param name="start">When the value switches on, seconds.</param>
    /// <param name="stop">When it switches off for good, seconds (+∞ for never).</param>
    /// <param name="initial">The value from <paramref name="start"/>.</param>
    /// <param name="steps">Changes, in time order: from <c>At</c> the value is <c>Value</c>.</param>
    /// <exception cref="ArgumentException">A value is negative or not finite, or the steps are out of order.</exception>
    public StepSchedule(double start, double stop, double initial, IEnumerable<(double At, double Value)>? steps = null)
    {
        if (!(start >= 0) || !(stop > start) || !(initial >= 0) || !double.IsFinite(initial))
        {
            throw new ArgumentException($"Invalid schedule: start {start}, stop {stop}, initial value {initial}.");
        }

        _start = start;
        _stop = stop;
        _initial = initial;
        _steps = steps?.ToArray() ?? [];
        for (var i = 0; i < _steps.Length; i++)
        {
            var (at, value) = _steps[i];
            if (!(at >= 0) || !(value >= 0) || !double.IsFinite(value) || (i > 0 && at < _steps[i - 1].At))
            {
                throw new ArgumentException($"Step {i} (at {at}, value {value}) is negative, not finite or out of order.", nameof(steps));
            }
        }
    }

    /// <inheritdoc />
    public double ValueAt(double seconds)
    {
        if (seconds < _start || seconds >= _stop)
        {
            return 0;
        }

        var value = _initial;
        foreach (var (at, stepValue) in _steps)
        {
            if (at > seconds)
            {
                break;
            }

            value = stepValue;
        }

        return value;
    }

    /// <inheritdoc />
    public double NextChangeAfter(double seconds)
    {
        if (seconds < _start)
        {
            return _start;
        }

        foreach (var (at, _) in _steps)
        {
            if (at > seconds && at < _stop)
            {
                return at;
            }
        }

        return seconds < _stop ? _stop : double.PositiveInfinity;
    }
}
