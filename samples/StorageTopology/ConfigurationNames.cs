// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Policies.Dropping;
using Cicero.Policies.Registration;
using Cicero.Policies.Scheduling;

namespace Cicero.StorageTopology;

/// <summary>
/// <c>--configurations a,b,...</c>: each name is a configuration of the scenario, <c>baseline</c> (no rate control,
/// FIFO, never drop early), or policies joined by <c>+</c>: <c>rc</c> (rate control with the default policy), a
/// scheduler (<c>drr</c>, <c>edf</c>, <c>lstf</c>, or a custom one), a rate-limit policy (which implies rate control)
/// or a drop policy, all looked up in the catalog (so <c>rc+drr</c>, <c>edf+rc</c>, <c>gold-first</c>).
/// </summary>
internal static class ConfigurationNames
{
    /// <summary>The configurations replay compares when none are named.</summary>
    public const string Default = "baseline,rc,rc+drr,edf+rc";

    /// <summary>The rate-control part of a name.</summary>
    public const string RateControl = "rc";

    /// <summary>The baseline configuration's name.</summary>
    public const string Baseline = "baseline";

    /// <summary>Resolves the names.</summary>
    /// <param name="text">The comma-separated names.</param>
    /// <param name="scenario">Configurations a name may refer to (the scenario's own).</param>
    /// <param name="catalog">The policies a part may name.</param>
    /// <returns>One configuration per name, named as given.</returns>
    /// <exception cref="ArgumentException">A name resolves to nothing, or is repeated; the message lists what is known.</exception>
    public static List<ConfigurationSpec> Resolve(string text, IReadOnlyList<ConfigurationSpec> scenario, PolicyCatalog catalog)
    {
        var names = text.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        if (names.Length == 0)
        {
            throw new ArgumentException($"--configurations: give at least one name, e.g. {Default}.");
        }

        var repeated = names.GroupBy(static n => n, StringComparer.OrdinalIgnoreCase).FirstOrDefault(static g => g.Count() > 1);
        if (repeated is not null)
        {
            throw new ArgumentException($"--configurations: {CommandErrors.Echo(repeated.Key)} is named twice.");
        }

        return [.. names.Select(name => scenario.FirstOrDefault(c => string.Equals(c.Name, name, StringComparison.OrdinalIgnoreCase)) ?? Compose(name, scenario, catalog))];
    }

    private static ConfigurationSpec Compose(string name, IReadOnlyList<ConfigurationSpec> scenario, PolicyCatalog catalog)
    {
        if (string.Equals(name, Baseline, StringComparison.OrdinalIgnoreCase))
        {
            return new ConfigurationSpec { Name = name, RateControl = false, Scheduler = SubtaskSchedulerNames.Fifo, DropPolicy = DropPolicies.Never };
        }

        // Without rate control nothing drops early either: a plain scheduler is compared with the baseline, not with rc.
        var configuration = new ConfigurationSpec { Name = name, RateControl = false, DropPolicy = DropPolicies.Never };
        string? scheduler = null;
        string? drop = null;
        foreach (var part in name.Split('+'))
        {
            if (string.Equals(part, RateControl, StringComparison.OrdinalIgnoreCase))
            {
                configuration.RateControl = true;
            }
            else if (Has(catalog.SchedulerNames, part) && scheduler is null)
            {
                scheduler = part;
            }
            else if (Has(catalog.RateLimitPolicyNames, part))
            {
                configuration.RateControl = true;
                configuration.RateLimitPolicy = part;
            }
            else if (Has(catalog.DropPolicyNames, part) && drop is null)
            {
                drop = part;
            }
            else
            {
                throw new ArgumentException(
                    $"--configurations: {CommandErrors.Echo(name)}: {CommandErrors.Echo(part)} is not rc, a scheduler, a rate-limit or a drop policy, and no configuration of the scenario has that name. "
                    + $"Scenario: {(scenario.Count == 0 ? "(none)" : string.Join(", ", scenario.Select(static c => c.Name)))}; schedulers: {string.Join(", ", catalog.SchedulerNames)}; "
                    + $"rate-limit policies: {string.Join(", ", catalog.RateLimitPolicyNames)}; drop policies: {string.Join(", ", catalog.DropPolicyNames)}.");
            }
        }

        configuration.Scheduler = scheduler ?? SubtaskSchedulerNames.Fifo;
        configuration.DropPolicy = drop ?? (configuration.RateControl ? DropPolicies.DeadlineFeasibility : DropPolicies.Never);
        return configuration;
    }

    private static bool Has(IReadOnlyList<string> names, string name) => names.Contains(name, StringComparer.OrdinalIgnoreCase);
}
