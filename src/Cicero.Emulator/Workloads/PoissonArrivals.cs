// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Workloads;

/// <summary>
/// An open-loop arrival process: a non-homogeneous Poisson process whose rate is piecewise constant. Arrivals are drawn
/// from the process's own seeded random source, so the same seed gives the same arrival times whatever else the
/// simulation does.
/// </summary>
/// <remarks>
/// Because the exponential is memoryless, a gap that would cross a rate change is discarded and drawn again from the
/// change at the new rate, which samples the piecewise process exactly. Not thread-safe: one simulation loop owns it.
/// </remarks>
public sealed class PoissonArrivals
{
    private readonly IRateFunction _rate;
    private readonly Random _random;

    /// <summary>Creates the process.</summary>
    /// <param name="rate">Requests per second over time.</param>
    /// <param name="random">The process's own seeded random source.</param>
    public PoissonArrivals(IRateFunction rate, Random random)
    {
        ArgumentNullException.ThrowIfNull(rate);
        ArgumentNullException.ThrowIfNull(random);
        _rate = rate;
        _random = random;
    }

    /// <summary>Gets the time of the first arrival strictly after <paramref name="seconds"/>.</summary>
    /// <param name="seconds">The current time, seconds.</param>
    /// <returns>The arrival time, or +∞ if the rate never becomes positive again.</returns>
    public double NextAfter(double seconds)
    {
        var t = seconds;
        while (true)
        {
            var rate = _rate.ValueAt(t);
            var change = _rate.NextChangeAfter(t);
            if (rate > 0)
            {
                var next = t + (-Math.Log(1 - _random.NextDouble()) / rate);
                if (next < change)
                {
                    return next;
                }
            }

            if (double.IsPositiveInfinity(change))
            {
                return double.PositiveInfinity;
            }

            t = change;
        }
    }
}
