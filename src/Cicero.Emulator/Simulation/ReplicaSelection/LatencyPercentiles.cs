// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>Exact percentiles of a sorted sample, interpolated linearly between ranks (numpy's default).</summary>
public static class LatencyPercentiles
{
    /// <summary>Gets the <paramref name="quantile"/> of <paramref name="sorted"/>.</summary>
    /// <param name="sorted">Values in ascending order.</param>
    /// <param name="quantile">A quantile in [0, 1].</param>
    /// <returns>The interpolated value; NaN for an empty sample.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="quantile"/> is outside [0, 1].</exception>
    public static double Of(ReadOnlySpan<double> sorted, double quantile)
    {
        if (!(quantile >= 0 && quantile <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(quantile), quantile, "Must be in [0, 1].");
        }

        if (sorted.IsEmpty)
        {
            return double.NaN;
        }

        var position = quantile * (sorted.Length - 1);
        var low = (int)Math.Floor(position);
        var high = Math.Min(low + 1, sorted.Length - 1);
        return sorted[low] + ((position - low) * (sorted[high] - sorted[low]));
    }
}
