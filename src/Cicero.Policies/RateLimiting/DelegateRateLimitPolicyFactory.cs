// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// A rate-limit policy factory from a name and a creation function, like <see cref="Scheduling.DelegateSchedulerFactory"/>
/// for schedulers: register a custom policy by name without writing a factory class.
/// </summary>
/// <param name="name">The configuration name.</param>
/// <param name="create">Creates the policy of one process (its registry and control interval).</param>
/// <exception cref="ArgumentException"><paramref name="name"/> is empty.</exception>
/// <exception cref="ArgumentNullException"><paramref name="create"/> is <see langword="null"/>.</exception>
public sealed class DelegateRateLimitPolicyFactory(string name, Func<RateLimitPolicyContext, IRateLimitPolicy> create) : RateLimitPolicyFactory
{
    private readonly Func<RateLimitPolicyContext, IRateLimitPolicy> _create = create ?? throw new ArgumentNullException(nameof(create));

    /// <inheritdoc />
    public override string Name { get; } = !string.IsNullOrWhiteSpace(name) ? name : throw new ArgumentException("A rate-limit policy needs a name.", nameof(name));

    /// <inheritdoc />
    /// <exception cref="InvalidOperationException">The creation function returned <see langword="null"/>.</exception>
    public override IRateLimitPolicy Create(RateLimitPolicyContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return _create(context) ?? throw new InvalidOperationException($"The factory of rate-limit policy '{Name}' returned null.");
    }
}
