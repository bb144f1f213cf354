// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.Tests.CustomPolicies;

/// <summary>
/// A custom rate-limit policy for docs/custom-policies.md: while the busiest local resource has less than
/// <paramref name="minimumSpare"/> spare capacity, every workflow is held at the rate it was admitted at in the last
/// interval; otherwise it imposes no local limit and the downstream rate decides.
/// </summary>
public sealed class SpareCapacityCapPolicy(double minimumSpare) : IRateLimitPolicy
{
    public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
    {
        var spare = 1.0;
        foreach (var resource in inputs.Resources)
        {
            spare = Math.Min(spare, resource.SpareFraction);
        }

        var workflows = inputs.Workflows;
        for (var i = 0; i < workflows.Length; i++)
        {
            localRates[i] = spare < minimumSpare ? Math.Max(1, workflows[i].AdmittedRate) : double.PositiveInfinity;
        }
    }

    public static RateLimitPolicyFactory CreateFactory(double minimumSpare) => new Factory(minimumSpare);

    private sealed class Factory(double minimumSpare) : RateLimitPolicyFactory
    {
        public override string Name => "spare-capacity-cap";

        public override IRateLimitPolicy Create(RateLimitPolicyContext context) => new SpareCapacityCapPolicy(minimumSpare);
    }
}
