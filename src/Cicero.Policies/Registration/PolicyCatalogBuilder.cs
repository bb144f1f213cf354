// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Policies.Dropping;
using Cicero.Policies.RateLimiting;
using Cicero.Policies.ReplicaSelection;
using Cicero.Policies.Scheduling;
using Cicero.RateAdaptation;
using Cicero.ReplicaSelection;
using Cicero.Resources;

namespace Cicero.Policies.Registration;

/// <summary>Collects policy factories by name and builds a <see cref="PolicyCatalog"/>.</summary>
/// <remarks>
/// Factories validate their options when they are created, so building the catalog at start-up surfaces every
/// configuration error before the first request. Adding a second factory under a name already used fails.
/// </remarks>
public sealed class PolicyCatalogBuilder
{
    private readonly Dictionary<string, SubtaskSchedulerFactory> _schedulers = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, RateLimitPolicyFactory> _rateLimitPolicies = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, DropPolicyFactory> _dropPolicies = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, ReplicaSelectorFactory> _replicaSelectors = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Creates a builder holding every policy of <paramref name="catalog"/>, to replace or add some.</summary>
    /// <param name="catalog">The catalog to start from.</param>
    /// <returns>The builder.</returns>
    public static PolicyCatalogBuilder From(PolicyCatalog catalog)
    {
        ArgumentNullException.ThrowIfNull(catalog);
        var builder = new PolicyCatalogBuilder();
        foreach (var name in catalog.SchedulerNames)
        {
            builder.AddScheduler(catalog.GetScheduler(name));
        }

        foreach (var name in catalog.RateLimitPolicyNames)
        {
            builder.AddRateLimitPolicy(catalog.GetRateLimitPolicy(name));
        }

        foreach (var name in catalog.DropPolicyNames)
        {
            builder.AddDropPolicy(catalog.GetDropPolicy(name));
        }

        foreach (var name in catalog.ReplicaSelectorNames)
        {
            builder.AddReplicaSelector(catalog.GetReplicaSelector(name));
        }

        return builder;
    }

    /// <summary>Creates a builder with every built-in policy registered with default options.</summary>
    /// <returns>The builder; add or replace policies before building.</returns>
    public static PolicyCatalogBuilder CreateDefault() => new PolicyCatalogBuilder()
        .AddScheduler(FifoScheduler.Factory)
        .AddScheduler(DeficitRoundRobinScheduler.CreateFactory())
        .AddScheduler(EarliestDeadlineFirstScheduler.Factory)
        .AddScheduler(LeastSlackTimeFirstScheduler.Factory)
        .AddScheduler(ShortestRemainingTimeFirstScheduler.Factory)
        .AddScheduler(LeastAttainedServiceScheduler.Factory)
        .AddScheduler(ShortestJobFirstScheduler.Factory)
        .AddScheduler(StrictPriorityScheduler.CreateFactory())
        .AddScheduler(CakeShareScheduler.CreateFactory())
        .AddBuiltInPolicies();

    /// <summary>Registers a scheduler factory under its name.</summary>
    /// <param name="factory">The factory.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="ArgumentException">The name is taken.</exception>
    public PolicyCatalogBuilder AddScheduler(SubtaskSchedulerFactory factory) => Add(_schedulers, factory, factory?.Name, "sub-task scheduler", $"to configure it with other options, call {nameof(ReplaceScheduler)}");

    /// <summary>Registers a rate-limit policy factory under its name.</summary>
    /// <param name="factory">The factory.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="ArgumentException">The name is taken.</exception>
    public PolicyCatalogBuilder AddRateLimitPolicy(RateLimitPolicyFactory factory) => Add(_rateLimitPolicies, factory, factory?.Name, "rate-limit policy", $"to configure it with other options, call {nameof(ReplaceRateLimitPolicy)}");

    /// <summary>Registers a drop policy factory under its name.</summary>
    /// <param name="factory">The factory.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="ArgumentException">The name is taken.</exception>
    public PolicyCatalogBuilder AddDropPolicy(DropPolicyFactory factory) => Add(_dropPolicies, factory, factory?.Name, "drop policy", $"to configure it with other options, call {nameof(ReplaceDropPolicy)}");

    /// <summary>Registers a replica selector factory under its name.</summary>
    /// <param name="factory">The factory.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="ArgumentException">The name is taken.</exception>
    public PolicyCatalogBuilder AddReplicaSelector(ReplicaSelectorFactory factory) => Add(_replicaSelectors, factory, factory?.Name, "replica selector", "register yours under another name");

    /// <summary>Replaces (or adds) a scheduler factory, for example a built-in one with other options.</summary>
    /// <param name="factory">The factory.</param>
    /// <returns>This builder.</returns>
    public PolicyCatalogBuilder ReplaceScheduler(SubtaskSchedulerFactory factory)
    {
        ArgumentNullException.ThrowIfNull(factory);
        _schedulers[factory.Name] = factory;
        return this;
    }

    /// <summary>Replaces (or adds) a rate-limit policy factory.</summary>
    /// <param name="factory">The factory.</param>
    /// <returns>This builder.</returns>
    public PolicyCatalogBuilder ReplaceRateLimitPolicy(RateLimitPolicyFactory factory)
    {
        ArgumentNullException.ThrowIfNull(factory);
        _rateLimitPolicies[factory.Name] = factory;
        return this;
    }

    /// <summary>Replaces (or adds) a drop policy factory.</summary>
    /// <param name="factory">The factory.</param>
    /// <returns>This builder.</returns>
    public PolicyCatalogBuilder ReplaceDropPolicy(DropPolicyFactory factory)
    {
        ArgumentNullException.ThrowIfNull(factory);
        _dropPolicies[factory.Name] = factory;
        return this;
    }

    /// <summary>Builds the immutable catalog.</summary>
    /// <returns>The catalog.</returns>
    public PolicyCatalog Build() => new(new(_schedulers), new(_rateLimitPolicies), new(_dropPolicies), new(_replicaSelectors));

    private PolicyCatalogBuilder Add<T>(Dictionary<string, T> factories, T factory, string? name, string kind, string hint)
    {
        ArgumentNullException.ThrowIfNull(factory);
        if (string.IsNullOrWhiteSpace(name))
        {
            throw new ArgumentException($"A {kind} factory must have a name.", nameof(factory));
        }

        if (!factories.TryAdd(name, factory))
        {
            throw new ArgumentException($"A {kind} named '{name}' is already registered (the built-in ones are); {hint}.", nameof(factory));
        }

        return this;
    }

    private PolicyCatalogBuilder AddBuiltInPolicies() => this
        .AddRateLimitPolicy(BuiltInRateLimitPolicies.PassThrough)
        .AddRateLimitPolicy(BottleneckFairnessPolicy.CreateFactory())
        .AddRateLimitPolicy(BottleneckFairnessPolicy.CreateFactory(RateLimitPolicies.BottleneckFairnessAsWritten, BottleneckFairnessOptions.AsWritten()))
        .AddRateLimitPolicy(StaticRatePolicy.CreateFactory())
        .AddRateLimitPolicy(MinimumThroughputPolicy.CreateFactory())
        .AddDropPolicy(BuiltInDropPolicies.DeadlineFeasibility)
        .AddDropPolicy(BuiltInDropPolicies.Never)
        .AddDropPolicy(QueueLengthDropPolicy.CreateFactory())
        .AddReplicaSelector(LatencyAwareC3Selector.CreateFactory())
        .AddReplicaSelector(C3ReplicaSelector.CreatePaperFactory())
        .AddReplicaSelector(BackgroundAwareSelector.CreateFactory())
        .AddReplicaSelector(RoundRobinSelector.CreateFactory())
        .AddReplicaSelector(RandomSelector.CreateFactory(seed: 0))
        .AddReplicaSelector(LeastOutstandingSelector.CreateFactory())
        .AddReplicaSelector(PowerOfTwoChoicesSelector.CreateFactory())
        .AddReplicaSelector(DynamicSnitchSelector.CreateFactory())
        .AddReplicaSelector(OracleSelector.CreateFactory());
}
