// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>Sets no local limit, so each workflow's announced rate is the downstream rate σ′ (+∞ at a leaf).</summary>
public sealed class PassThroughRateLimitPolicy : IRateLimitPolicy
{
    /// <summary>Gets the shared instance.</summary>
    public static PassThroughRateLimitPolicy Instance { get; } = new();

    private PassThroughRateLimitPolicy()
    {
    }

    /// <inheritdoc />
    void IRateLimitPolicy.ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now) => localRates.Fill(double.PositiveInfinity);
}
