// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>Factories for the rate-limit policies that ship in Cicero.Core.</summary>
/// <remarks>The policies with options have their own <c>CreateFactory</c>, such as <see cref="BottleneckFairnessPolicy.CreateFactory(BottleneckFairnessOptions?)"/>.</remarks>
internal static class BuiltInRateLimitPolicies
{
    /// <summary>
    /// Gets a factory under the name <see cref="RateLimitPolicies.PassThrough"/> that returns Core's shared
    /// <see cref="PassThroughRateLimitPolicy"/>: no local limit, so each workflow is admitted at its downstream rate.
    /// </summary>
    public static RateLimitPolicyFactory PassThrough { get; } = new PassThroughFactory();

    private sealed class PassThroughFactory : RateLimitPolicyFactory
    {
        public override string Name => RateLimitPolicies.PassThrough;

        public override IRateLimitPolicy Create(RateLimitPolicyContext context) => PassThroughRateLimitPolicy.Instance;
    }
}
