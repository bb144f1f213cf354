// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Benchmarks;

/// <summary>The median the harnesses report: the middle value, or the mean of the two middle values.</summary>
internal static class Medians
{
    public static double Of(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        if (sorted.Length == 0)
        {
            throw new ArgumentException("A median needs at least one value.", nameof(values));
        }

        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
