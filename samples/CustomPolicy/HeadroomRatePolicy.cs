// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;

namespace CustomPolicy;

/// <summary>
/// Keeps a share of every resource free: when the busiest resource is fuller than <paramref name="target"/>, each
/// workflow is held to its admitted rate scaled down by how far over the target it is; otherwise no local limit.
/// </summary>
public sealed class HeadroomRatePolicy(double target) : IRateLimitPolicy
{
    /// <summary>The name it is configured by.</summary>
    public const string Name = "headroom";

    /// <summary>Creates the factory that registers it by <see cref="Name"/>.</summary>
    /// <param name="target">The utilization to stay under, in (0, 1].</param>
    /// <returns>The factory.</returns>
    public static RateLimitPolicyFactory CreateFactory(double target)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(target);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(target, 1);
        return new DelegateRateLimitPolicyFactory(Name, _ => new HeadroomRatePolicy(target));
    }

    /// <inheritdoc />
    public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
    {
        var busiest = 0.0;
        foreach (var resource in inputs.Resources)
        {
            busiest = Math.Max(busiest, 1 - resource.SpareFraction);
        }

        var workflows = inputs.Workflows;
        for (var i = 0; i < workflows.Length; i++)
        {
            localRates[i] = busiest <= target
                ? double.PositiveInfinity
                : Math.Max(1, workflows[i].AdmittedRate * target / busiest);
        }
    }
}
