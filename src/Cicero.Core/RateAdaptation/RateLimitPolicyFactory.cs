// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>Creates a process's rate-limit policy; registered and looked up by <see cref="Name"/>.</summary>
/// <remarks>Options are validated when the factory is built, so a bad configuration fails at start-up.</remarks>
public abstract class RateLimitPolicyFactory
{
    /// <summary>Gets the name the policy is configured by, such as "bottleneck-fairness".</summary>
    public abstract string Name { get; }

    /// <summary>Creates a policy for one process.</summary>
    /// <param name="context">The process it will serve.</param>
    /// <returns>A new policy; stateful policies are never shared between processes.</returns>
    public abstract IRateLimitPolicy Create(RateLimitPolicyContext context);
}
