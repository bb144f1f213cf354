// SPDX-License-Identifier: Apache-2.0

using System.Buffers;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// Max-min fair allocation of a divisible capacity by progressive filling (water-filling): every unsatisfied demand
/// gets an equal (or weight-proportional) share of what is left; a demand below its share is satisfied in full and the
/// rest is redistributed among the others. The <c>MaxMinFairness</c> step of dissertation Algorithm 4, line 9.
/// </summary>
/// <remarks>
/// O(n log n): demands are visited in increasing order of demand ÷ weight. Allocates nothing for up to 64 demands
/// (the scratch is on the stack); beyond that the scratch is rented from <see cref="ArrayPool{T}.Shared"/>. Stateless
/// and thread-safe. When the capacity covers every demand, each allocation equals its demand and the surplus is left
/// unallocated.
/// </remarks>
public static class MaxMinFairness
{
    private const int StackLimit = 64;

    /// <summary>Allocates <paramref name="capacity"/> max-min fairly over <paramref name="demands"/>, with equal weights.</summary>
    /// <param name="demands">Non-negative demands; +∞ means "as much as possible".</param>
    /// <param name="capacity">The non-negative capacity to share; +∞ satisfies every demand.</param>
    /// <param name="allocations">Receives one allocation per demand, in the same order; may be the same memory as <paramref name="demands"/>.</param>
    /// <exception cref="ArgumentException">A length differs, or a demand is negative or NaN.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative or NaN.</exception>
    public static void Allocate(ReadOnlySpan<double> demands, double capacity, Span<double> allocations) =>
        AllocateCore(demands, default, capacity, allocations, weighted: false);

    /// <summary>Allocates <paramref name="capacity"/> weighted max-min fairly: shares of what is left follow the weights.</summary>
    /// <param name="demands">Non-negative demands; +∞ means "as much as possible".</param>
    /// <param name="weights">One positive, finite weight per demand.</param>
    /// <param name="capacity">The non-negative capacity to share; +∞ satisfies every demand.</param>
    /// <param name="allocations">Receives one allocation per demand, in the same order; may be the same memory as <paramref name="demands"/>.</param>
    /// <exception cref="ArgumentException">A length differs, a demand is negative or NaN, or a weight is not positive and finite.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative or NaN.</exception>
    public static void Allocate(ReadOnlySpan<double> demands, ReadOnlySpan<double> weights, double capacity, Span<double> allocations)
    {
        if (weights.Length != demands.Length)
        {
            throw new ArgumentException($"Expected {demands.Length} weights (one per demand), got {weights.Length}.", nameof(weights));
        }

        AllocateCore(demands, weights, capacity, allocations, weighted: true);
    }

    private static void AllocateCore(ReadOnlySpan<double> demands, ReadOnlySpan<double> weights, double capacity, Span<double> allocations, bool weighted)
    {
        Validate(demands, weights, capacity, allocations, weighted);
        var n = demands.Length;
        if (n == 0)
        {
            return;
        }

        if (double.IsPositiveInfinity(capacity))
        {
            demands.CopyTo(allocations);
            return;
        }

        double[]? rentedKeys = null;
        int[]? rentedOrder = null;
        var keys = n <= StackLimit ? stackalloc double[n] : (rentedKeys = ArrayPool<double>.Shared.Rent(n)).AsSpan(0, n);
        var order = n <= StackLimit ? stackalloc int[n] : (rentedOrder = ArrayPool<int>.Shared.Rent(n)).AsSpan(0, n);
        try
        {
            var totalWeight = 0.0;
            for (var i = 0; i < n; i++)
            {
                var weight = weighted ? weights[i] : 1;
                keys[i] = demands[i] / weight;
                order[i] = i;
                totalWeight += weight;
            }

            keys.Sort(order);
            var remaining = capacity;
            for (var k = 0; k < n; k++)
            {
                var i = order[k];
                var weight = weighted ? weights[i] : 1;

                // The last one takes all that is left, so rounding in the running weight total cannot strand capacity.
                var share = k == n - 1 ? remaining : remaining * weight / totalWeight;
                var allocation = Math.Min(demands[i], Math.Max(0, share));
                allocations[i] = allocation;
                remaining = Math.Max(0, remaining - allocation);
                totalWeight -= weight;
            }
        }
        finally
        {
            if (rentedKeys is not null)
            {
                ArrayPool<double>.Shared.Return(rentedKeys);
            }

            if (rentedOrder is not null)
            {
                ArrayPool<int>.Shared.Return(rentedOrder);
            }
        }
    }

    private static void Validate(ReadOnlySpan<double> demands, ReadOnlySpan<double> weights, double capacity, Span<double> allocations, bool weighted)
    {
        if (double.IsNaN(capacity) || capacity < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(capacity), capacity, "The capacity must be non-negative (or +∞).");
        }

        if (allocations.Length != demands.Length)
        {
            throw new ArgumentException($"Expected {demands.Length} allocation slots (one per demand), got {allocations.Length}.", nameof(allocations));
        }

        for (var i = 0; i < demands.Length; i++)
        {
            if (double.IsNaN(demands[i]) || demands[i] < 0)
            {
                throw new ArgumentException($"Demand {i} is {demands[i]}; demands must be non-negative (or +∞).", nameof(demands));
            }

            if (weighted && (!(weights[i] > 0) || !double.IsFinite(weights[i])))
            {
                throw new ArgumentException($"Weight {i} is {weights[i]}; weights must be positive and finite.", nameof(weights));
            }
        }
    }
}
