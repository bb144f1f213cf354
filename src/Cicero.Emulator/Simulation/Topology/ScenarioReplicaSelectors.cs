// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// A run's replica selectors, made the same way by both runners. C3 is told how many callers share the servers (its n)
/// and gets the configuration's token-bucket size, if any. The catalog's random and P2C factories draw every
/// selector's seed from one source shared by the whole process, so a second run in the same process would get other
/// seeds; these draw from the run's own stream instead.
/// </summary>
internal static class ScenarioReplicaSelectors
{
    /// <summary>Gets the factory of a selector by catalog name, as a caller service of <paramref name="callers"/> instances uses it.</summary>
    /// <param name="catalog">The run's catalog.</param>
    /// <param name="configuration">The configuration (C3's token bucket).</param>
    /// <param name="name">The selector's catalog name.</param>
    /// <param name="callers">The number of instances of the calling service: C3's n.</param>
    /// <param name="nextSeed">Draws the seed of each random or P2C selector, when it is created.</param>
    /// <returns>A factory under the catalog's name for the selector.</returns>
    public static ReplicaSelectorFactory Factory(PolicyCatalog catalog, ConfigurationSpec configuration, string name, int callers, Func<int> nextSeed)
    {
        if (string.Equals(name, ReplicaSelectorNames.C3, StringComparison.OrdinalIgnoreCase))
        {
            var options = new C3Options { ClientCount = callers };
            if (configuration.C3MaxTokens is { } tokens)
            {
                options.Rate.MaxTokens = tokens;
            }

            if (CubicRateVariants.Parse(configuration.C3RateVariant) is { } variant)
            {
                options.Rate.Variant = variant;
            }

            return C3ReplicaSelector.CreateFactory(options);
        }

        if (string.Equals(name, ReplicaSelectorNames.Random, StringComparison.OrdinalIgnoreCase))
        {
            return new DelegateReplicaSelectorFactory(ReplicaSelectorNames.Random, _ => new RandomSelector(nextSeed()));
        }

        if (string.Equals(name, ReplicaSelectorNames.PowerOfTwoChoicesPeakEwma, StringComparison.OrdinalIgnoreCase))
        {
            return new DelegateReplicaSelectorFactory(
                ReplicaSelectorNames.PowerOfTwoChoicesPeakEwma,
                frequency => PowerOfTwoChoicesSelector.CreateFactory(new PowerOfTwoChoicesOptions { Random = new Random(nextSeed()) }).Create(frequency));
        }

        return catalog.GetReplicaSelector(name);
    }
}
