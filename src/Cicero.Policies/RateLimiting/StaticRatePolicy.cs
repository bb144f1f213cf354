// SPDX-License-Identifier: Apache-2.0

using System.Collections.Frozen;
using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// Static throughput limits (dissertation section 5.2.5, "static throughput guarantees"): each workflow's local rate is
/// the one configured for it, whatever the load. The announced rate is still min(σ^local, σ′), so downstream
/// bottlenecks bubble up as usual.
/// </summary>
/// <remarks>
/// The rates are copied when the factory (or policy) is created; later edits to the options have no effect.
/// Single-threaded by contract; reads no clock, does no I/O and allocates nothing per call.
/// </remarks>
public sealed class StaticRatePolicy : IRateLimitPolicy
{
    private readonly FrozenDictionary<string, double> _rates;
    private readonly double _defaultRate;

    /// <summary>Creates the policy.</summary>
    /// <param name="options">Per-workflow and default rates; defaults (no limits) when <see langword="null"/>.</param>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public StaticRatePolicy(StaticRateOptions? options = null)
    {
        options ??= new StaticRateOptions();
        options.Validate();
        _rates = options.Rates.ToFrozenDictionary(StringComparer.Ordinal);
        _defaultRate = options.DefaultRate;
    }

    /// <summary>Creates a factory under the name <see cref="RateLimitPolicies.Static"/>.</summary>
    /// <param name="options">The rates, validated and copied now; defaults when <see langword="null"/>.</param>
    /// <returns>The factory.</returns>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public static RateLimitPolicyFactory CreateFactory(StaticRateOptions? options = null) =>
        new StaticRateFactory(new StaticRatePolicy(options));

    /// <inheritdoc />
    void IRateLimitPolicy.ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
    {
        ArgumentNullException.ThrowIfNull(inputs);
        var workflows = inputs.Workflows;
        if (localRates.Length != workflows.Length)
        {
            throw new ArgumentException($"Expected {workflows.Length} rate slots (one per workflow), got {localRates.Length}.", nameof(localRates));
        }

        for (var j = 0; j < workflows.Length; j++)
        {
            localRates[j] = _rates.TryGetValue(workflows[j].Workflow.Id.Value, out var rate) ? rate : _defaultRate;
        }
    }

    // The policy is stateless and immutable, so every process can share one instance.
    private sealed class StaticRateFactory(StaticRatePolicy policy) : RateLimitPolicyFactory
    {
        public override string Name => RateLimitPolicies.Static;

        public override IRateLimitPolicy Create(RateLimitPolicyContext context) => policy;
    }
}
