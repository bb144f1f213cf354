// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Context;

/// <summary>
/// The progress (b) counters a hop accrued: its own work plus what its downstream calls reported back. A child returns
/// this to its parent when it completes (dissertation section 5.2.4).
/// </summary>
/// <param name="ServiceTime">Service time st in seconds, a parallel-divide metric.</param>
/// <param name="Load">Total load θ (demand divided by capacity), a sum metric.</param>
public readonly record struct ProgressDelta(double ServiceTime, double Load)
{
    /// <summary>Gets a delta with no progress.</summary>
    public static ProgressDelta Zero => default;

    /// <summary>Joins the deltas of children that ran in parallel: service time adds Σb/p, load adds Σb.</summary>
    /// <param name="children">The children's deltas; an empty span gives <see cref="Zero"/>.</param>
    /// <returns>The delta the join adds to the parent.</returns>
    public static ProgressDelta JoinParallel(ReadOnlySpan<ProgressDelta> children)
    {
        if (children.IsEmpty)
        {
            return Zero;
        }

        double serviceTime = 0, load = 0;
        foreach (var child in children)
        {
            serviceTime += child.ServiceTime;
            load += child.Load;
        }

        return new ProgressDelta(serviceTime / children.Length, load);
    }

    /// <summary>Checks that both counters are finite and not negative.</summary>
    /// <returns>An error message, or <see langword="null"/> when valid.</returns>
    internal string? Validate() =>
        !double.IsFinite(ServiceTime) || ServiceTime < 0 ? "The service-time progress must be a finite, non-negative number of seconds."
        : !double.IsFinite(Load) || Load < 0 ? "The load progress must be a finite, non-negative number."
        : null;
}
