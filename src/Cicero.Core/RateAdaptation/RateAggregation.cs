// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>The arithmetic of Algorithm 3's rate aggregation, exposed for policies, simulations and tests.</summary>
public static class RateAggregation
{
    /// <summary>
    /// The q-quantile of <paramref name="values"/> with linear interpolation between the closest ranks
    /// (q = 0 is the minimum, q = 1 the maximum, q = 0.5 of an even count is the mean of the middle two).
    /// </summary>
    /// <param name="values">The values; sorted in place. +∞ is allowed.</param>
    /// <param name="quantile">q in [0, 1].</param>
    /// <returns>The quantile.</returns>
    /// <exception cref="ArgumentException"><paramref name="values"/> is empty.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="quantile"/> is outside [0, 1].</exception>
    public static double Quantile(Span<double> values, double quantile)
    {
        if (values.IsEmpty)
        {
            throw new ArgumentException("The quantile of no values is undefined.", nameof(values));
        }

        ValidateQuantile(quantile);
        values.Sort();
        var position = quantile * (values.Length - 1);
        var lower = (int)Math.Floor(position);
        var fraction = position - lower;
        if (fraction == 0 || lower + 1 >= values.Length)
        {
            return values[lower];
        }

        var low = values[lower];
        var high = values[lower + 1];
        return double.IsPositiveInfinity(high) ? double.PositiveInfinity : low + (fraction * (high - low));
    }

    /// <summary>
    /// Turns one instance's answer into the request rate it implies for the caller:
    /// answer / (α × the fraction of the caller's calls to the service that reach that instance).
    /// </summary>
    /// <param name="answer">The rate of calls the instance grants the caller.</param>
    /// <param name="amplification">α: calls to the service per request admitted at the caller.</param>
    /// <param name="fraction">The share of those calls that go to this instance, in (0, 1].</param>
    /// <returns>Requests per second at the caller; +∞ for an unlimited answer.</returns>
    public static double ImpliedRequestRate(double answer, double amplification, double fraction)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(amplification);
        if (!(fraction > 0 && fraction <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(fraction), fraction, "Must be in (0, 1].");
        }

        return double.IsPositiveInfinity(answer) ? double.PositiveInfinity : answer / (amplification * fraction);
    }

    /// <summary>
    /// The entry request rate a downstream tier allows a workflow, for reports: the tier's Σσ (calls per second over its
    /// instances) ÷ α, the calls the tier receives per admitted entry request.
    /// </summary>
    /// <param name="tierRate">Σσ over the tier's instances, in calls per second.</param>
    /// <param name="amplification">α: the tier's calls per admitted entry request; 0 when the workflow does not reach it.</param>
    /// <returns>Entry requests per second; +∞ when the tier does not constrain the workflow.</returns>
    public static double EntryAllowance(double tierRate, double amplification) =>
        amplification > 0 && double.IsFinite(tierRate) ? tierRate / amplification : double.PositiveInfinity;

    /// <summary>
    /// The rate a downstream instance grants one caller for a workflow: its σ in proportion to the caller's share of
    /// the demand. While demand is below σ, the unused headroom is split equally among the callers, so a caller with
    /// little demand can still grow; and no caller gets less than σ / (2k), so a caller whose demand has decayed (or a
    /// new one) is never locked out at zero.
    /// </summary>
    /// <param name="rate">The instance's announced σ for the workflow.</param>
    /// <param name="callerDemand">The caller's measured request rate for the workflow.</param>
    /// <param name="totalDemand">All callers' measured request rate for the workflow.</param>
    /// <param name="callerCount">k, the number of callers sharing the workflow here (at least 1).</param>
    /// <returns>The rate granted to the caller.</returns>
    public static double ShareForCaller(double rate, double callerDemand, double totalDemand, int callerCount = 1)
    {
        if (double.IsPositiveInfinity(rate) || totalDemand <= 0)
        {
            return rate;
        }

        var callers = Math.Max(1, callerCount);
        var demand = Math.Clamp(callerDemand, 0, totalDemand);
        var share = totalDemand < rate ? demand + ((rate - totalDemand) / callers) : rate * (demand / totalDemand);
        return Math.Max(share, rate / (2.0 * callers));
    }

    internal static void ValidateQuantile(double quantile)
    {
        if (!(quantile >= 0 && quantile <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(quantile), quantile, "The quantile knob q must be in [0, 1].");
        }
    }
}
