// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.StorageTopology;

/// <summary>Finds the scenario the command line names: a file if one exists at that path, else an embedded scenario.</summary>
internal static class ScenarioSource
{
    /// <summary>Loads the scenario; <see langword="null"/> selects the embedded default. A file's policy names are checked against <paramref name="catalog"/> (the default catalog when null).</summary>
    /// <param name="nameOrPath">A file, or an embedded scenario's name.</param>
    /// <param name="catalog">The policies a file's configurations may name.</param>
    /// <returns>The scenario.</returns>
    /// <exception cref="ScenarioValidationException">The scenario is invalid.</exception>
    /// <exception cref="FileNotFoundException">No file and no embedded scenario has that name.</exception>
    public static ScenarioSpec Load(string? nameOrPath, Cicero.Policies.Registration.PolicyCatalog? catalog = null)
    {
        if (string.IsNullOrWhiteSpace(nameOrPath))
        {
            return ScenarioLoader.LoadDefault();
        }

        if (File.Exists(nameOrPath))
        {
            return ScenarioLoader.LoadFile(nameOrPath, catalog);
        }

        // "performance-isolation.json" names the embedded file as well as "performance-isolation".
        var name = nameOrPath.EndsWith(".json", StringComparison.OrdinalIgnoreCase) ? nameOrPath[..^".json".Length] : nameOrPath;
        if (ScenarioLoader.EmbeddedScenarioNames.Contains(name, StringComparer.Ordinal))
        {
            return ScenarioLoader.LoadEmbedded(name);
        }

        throw new FileNotFoundException(
            $"No scenario file '{nameOrPath}' and no embedded scenario of that name. Embedded: {string.Join(", ", ScenarioLoader.EmbeddedScenarioNames)} (see --list).",
            nameOrPath);
    }
}
