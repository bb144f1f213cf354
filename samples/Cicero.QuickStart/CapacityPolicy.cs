// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.QuickStart;

/// <summary>A leaf's local policy: it can serve <see cref="Capacity"/> requests per second of any workflow.</summary>
internal sealed class CapacityPolicy(double capacity) : IRateLimitPolicy
{
    public double Capacity { get; set; } = capacity;

    public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now) => localRates.Fill(Capacity);
}
