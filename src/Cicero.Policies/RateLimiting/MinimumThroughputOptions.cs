// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>Options of the <see cref="MinimumThroughputPolicy"/>: a process capacity and per-workflow reservations.</summary>
public sealed class MinimumThroughputOptions
{
    /// <summary>
    /// Gets or sets the total rate this process can admit, over all workflows, in requests per second. Set it: with the
    /// default nothing is scarce, so no workflow is limited and reservations have nothing to protect.
    /// </summary>
    /// <value>+∞.</value>
    public double Capacity { get; set; } = double.PositiveInfinity;

    /// <summary>
    /// Gets the guaranteed rate of each workflow by id (ordinal, case-sensitive), in requests per second. Reserved
    /// capacity is held for its workflow even while it is idle or not yet seen; the sum must not exceed <see cref="Capacity"/>.
    /// </summary>
    /// <value>Empty.</value>
    public Dictionary<string, double> Reservations { get; } = new(StringComparer.Ordinal);

    internal void Validate()
    {
        if (!(Capacity > 0))
        {
            throw new ArgumentOutOfRangeException(nameof(Capacity), Capacity, "The capacity must be a positive rate (requests/s), or +∞.");
        }

        var total = 0.0;
        foreach (var (workflow, reservation) in Reservations)
        {
            if (string.IsNullOrWhiteSpace(workflow))
            {
                throw new ArgumentException("A workflow id in Reservations is empty.", nameof(Reservations));
            }

            if (!(reservation >= 0) || !double.IsFinite(reservation))
            {
                throw new ArgumentOutOfRangeException(nameof(Reservations), reservation, $"The reservation of workflow '{workflow}' must be a non-negative, finite rate.");
            }

            total += reservation;
        }

        if (total > Capacity)
        {
            throw new ArgumentException($"The reservations sum to {total} requests/s, more than the Capacity of {Capacity}.", nameof(Reservations));
        }
    }
}
