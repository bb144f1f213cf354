// SPDX-License-Identifier: Apache-2.0

using System.Collections.Frozen;
using Cicero.Admission;
using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.ReplicaSelection;
using Cicero.Resources;

namespace Cicero.Policies.Registration;

/// <summary>
/// Policies by configuration name: sub-task schedulers, rate-limit policies and drop policies. Built once (at
/// start-up) from a <see cref="PolicyCatalogBuilder"/>; looking up an unknown name fails with the list of known ones.
/// </summary>
/// <remarks>Immutable and thread-safe.</remarks>
public sealed class PolicyCatalog
{
    private readonly FrozenDictionary<string, SubtaskSchedulerFactory> _schedulers;
    private readonly FrozenDictionary<string, RateLimitPolicyFactory> _rateLimitPolicies;
    private readonly FrozenDictionary<string, DropPolicyFactory> _dropPolicies;
    private readonly FrozenDictionary<string, ReplicaSelectorFactory> _replicaSelectors;

    internal PolicyCatalog(
        Dictionary<string, SubtaskSchedulerFactory> schedulers,
        Dictionary<string, RateLimitPolicyFactory> rateLimitPolicies,
        Dictionary<string, DropPolicyFactory> dropPolicies,
        Dictionary<string, ReplicaSelectorFactory> replicaSelectors)
    {
        _schedulers = schedulers.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);
        _rateLimitPolicies = rateLimitPolicies.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);
        _dropPolicies = dropPolicies.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);
        _replicaSelectors = replicaSelectors.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);
    }

    /// <summary>Gets a catalog of every built-in policy with default options.</summary>
    public static PolicyCatalog Default { get; } = PolicyCatalogBuilder.CreateDefault().Build();

    /// <summary>Gets the scheduler names, sorted.</summary>
    public IReadOnlyList<string> SchedulerNames => Sorted(_schedulers.Keys);

    /// <summary>Gets the rate-limit policy names, sorted.</summary>
    public IReadOnlyList<string> RateLimitPolicyNames => Sorted(_rateLimitPolicies.Keys);

    /// <summary>Gets the drop policy names, sorted.</summary>
    public IReadOnlyList<string> DropPolicyNames => Sorted(_dropPolicies.Keys);

    /// <summary>Gets the replica selector names, sorted.</summary>
    public IReadOnlyList<string> ReplicaSelectorNames => Sorted(_replicaSelectors.Keys);

    /// <summary>Gets the replica selector factory registered under <paramref name="name"/> (case-insensitive).</summary>
    /// <param name="name">The configuration name, such as "c3".</param>
    /// <returns>The factory.</returns>
    /// <exception cref="ArgumentException">No selector has that name; the message lists the known ones.</exception>
    public ReplicaSelectorFactory GetReplicaSelector(string name) => Find(_replicaSelectors, name, "replica selector");

    /// <summary>Gets the scheduler factory registered under <paramref name="name"/> (case-insensitive).</summary>
    /// <param name="name">The configuration name, such as "edf".</param>
    /// <returns>The factory.</returns>
    /// <exception cref="ArgumentException">No scheduler has that name; the message lists the known ones.</exception>
    public SubtaskSchedulerFactory GetScheduler(string name) => Find(_schedulers, name, "sub-task scheduler");

    /// <summary>Gets the rate-limit policy factory registered under <paramref name="name"/> (case-insensitive).</summary>
    /// <param name="name">The configuration name, such as "bottleneck-fairness".</param>
    /// <returns>The factory.</returns>
    /// <exception cref="ArgumentException">No policy has that name; the message lists the known ones.</exception>
    public RateLimitPolicyFactory GetRateLimitPolicy(string name) => Find(_rateLimitPolicies, name, "rate-limit policy");

    /// <summary>Gets the drop policy factory registered under <paramref name="name"/> (case-insensitive).</summary>
    /// <param name="name">The configuration name, such as "deadline-feasibility".</param>
    /// <returns>The factory.</returns>
    /// <exception cref="ArgumentException">No policy has that name; the message lists the known ones.</exception>
    public DropPolicyFactory GetDropPolicy(string name) => Find(_dropPolicies, name, "drop policy");

    private static T Find<T>(FrozenDictionary<string, T> factories, string name, string kind)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (factories.TryGetValue(name, out var factory))
        {
            return factory;
        }

        var hint = string.Equals(name, RateLimitPolicies.CakeSlo, StringComparison.OrdinalIgnoreCase)
            ? " 'cake-slo' drives a Cake share scheduler, so it is registered with that scheduler: PolicyCatalogBuilder.AddRateLimitPolicy(CakeSloController.CreateFactory(options, scheduler))."
            : string.Empty;
        throw new ArgumentException(
            $"Unknown {kind} '{name}'. Known: {string.Join(", ", Sorted(factories.Keys))}.{hint}", nameof(name));
    }

    private static string[] Sorted(IEnumerable<string> names)
    {
        var array = names.ToArray();
        Array.Sort(array, StringComparer.Ordinal);
        return array;
    }
}
