// SPDX-License-Identifier: Apache-2.0

using System.Text.Json;
using Cicero.Policies.Registration;

namespace Cicero.Emulator.Scenarios;

/// <summary>Reads scenario files (JSON), fills in the default topology where it is omitted, and validates them.</summary>
/// <remarks>
/// Syntax errors and unknown fields stop parsing at the first one (the parser cannot go on); every other problem is
/// collected, so <see cref="ScenarioValidationException.Errors"/> lists them all, each as <c>path: problem</c>.
/// Stateless and thread-safe.
/// </remarks>
public static class ScenarioLoader
{
    /// <summary>The name of the embedded default scenario: the dissertation's performance-isolation experiment (5.3.1).</summary>
    public const string DefaultScenarioName = "performance-isolation";

    private const string ResourcePrefix = "Cicero.Emulator.Scenarios.";

    // The parser names .NET types; a scenario author thinks in JSON values.
    private static readonly (string Type, string Expected)[] ExpectedValues =
    [
        ("System.String", "a string"),
        ("System.Double", "a number"),
        ("System.Nullable`1[System.Double]", "a number or null"),
        ("System.Int32", "an integer"),
        ("System.Nullable`1[System.Int32]", "an integer or null"),
        ("System.Boolean", "true or false"),
    ];

    /// <summary>Gets the names of the scenarios embedded in this assembly, sorted.</summary>
    public static IReadOnlyList<string> EmbeddedScenarioNames
    {
        get
        {
            var names = new List<string>();
            foreach (var resource in typeof(ScenarioLoader).Assembly.GetManifestResourceNames())
            {
                if (resource.StartsWith(ResourcePrefix, StringComparison.Ordinal) && resource.EndsWith(".json", StringComparison.Ordinal))
                {
                    names.Add(resource[ResourcePrefix.Length..^".json".Length]);
                }
            }

            names.Sort(StringComparer.Ordinal);
            return names;
        }
    }

    /// <summary>Parses and validates a scenario.</summary>
    /// <param name="json">The scenario file's text.</param>
    /// <param name="source">Where it came from (a file name), for error messages; optional.</param>
    /// <param name="catalog">The policies names resolve against; <see cref="PolicyCatalog.Default"/> when <see langword="null"/>.</param>
    /// <returns>The scenario, with the default topology filled in if it had no services.</returns>
    /// <exception cref="ScenarioValidationException">The JSON is malformed or the scenario is invalid.</exception>
    public static ScenarioSpec Parse(string json, string? source = null, PolicyCatalog? catalog = null)
    {
        ArgumentNullException.ThrowIfNull(json);
        ScenarioSpec? scenario;
        try
        {
            scenario = JsonSerializer.Deserialize(json, EmulatorJsonContext.Default.ScenarioSpec);
        }
        catch (JsonException ex)
        {
            throw new ScenarioValidationException([ToError(ex)], source, ex);
        }

        if (scenario is null)
        {
            throw new ScenarioValidationException([new ScenarioError(string.Empty, "the scenario is null; expected an object")], source);
        }

        ApplyDefaults(scenario);
        var errors = Validate(scenario, catalog);
        return errors.Count > 0 ? throw new ScenarioValidationException(errors, source) : scenario;
    }

    /// <summary>Reads, parses and validates a scenario file.</summary>
    /// <param name="path">The file.</param>
    /// <param name="catalog">The policies names resolve against; the default catalog when <see langword="null"/>.</param>
    /// <returns>The scenario.</returns>
    /// <exception cref="ScenarioValidationException">The JSON is malformed or the scenario is invalid.</exception>
    public static ScenarioSpec LoadFile(string path, PolicyCatalog? catalog = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        return Parse(File.ReadAllText(path), Path.GetFileName(path), catalog);
    }

    /// <summary>Loads a scenario embedded in this assembly.</summary>
    /// <param name="name">One of <see cref="EmbeddedScenarioNames"/>.</param>
    /// <returns>A fresh copy of the scenario, free to modify.</returns>
    /// <exception cref="ArgumentException">No embedded scenario has that name.</exception>
    public static ScenarioSpec LoadEmbedded(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        using var stream = typeof(ScenarioLoader).Assembly.GetManifestResourceStream(ResourcePrefix + name + ".json")
            ?? throw new ArgumentException($"No embedded scenario '{name}'. Known: {string.Join(", ", EmbeddedScenarioNames)}.", nameof(name));
        using var reader = new StreamReader(stream);
        return Parse(reader.ReadToEnd(), name + ".json");
    }

    /// <summary>Loads the embedded default scenario, <see cref="DefaultScenarioName"/>.</summary>
    /// <returns>A fresh copy of the scenario, free to modify.</returns>
    public static ScenarioSpec LoadDefault() => LoadEmbedded(DefaultScenarioName);

    /// <summary>Validates a scenario built or modified in code.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="catalog">The policies names resolve against; the default catalog when <see langword="null"/>.</param>
    /// <returns>Every problem found; empty when the scenario is valid.</returns>
    public static IReadOnlyList<ScenarioError> Validate(ScenarioSpec scenario, PolicyCatalog? catalog = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return new ScenarioValidator(catalog ?? PolicyCatalog.Default).Validate(scenario);
    }

    /// <summary>Writes a scenario as JSON in the file format.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <returns>The JSON text.</returns>
    public static string ToJson(ScenarioSpec scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return JsonSerializer.Serialize(scenario, EmulatorJsonContext.Default.ScenarioSpec);
    }

    private static void ApplyDefaults(ScenarioSpec scenario)
    {
        if (scenario.Services is null)
        {
            scenario.Services = DefaultTopology.CreateServices();
            scenario.Routes ??= DefaultTopology.CreateRoutes();
        }
    }

    private static ScenarioError ToError(JsonException ex)
    {
        var path = ex.Path ?? string.Empty;
        path = path.StartsWith("$.", StringComparison.Ordinal) ? path[2..] : path.TrimStart('$');

        // The parser's message repeats the path and position; keep its first sentence and say where instead.
        var message = ex.Message;
        var cut = message.IndexOf(" Path: ", StringComparison.Ordinal);
        if (cut > 0)
        {
            message = message[..cut];
        }

        var where = ex.LineNumber is { } line ? $" (line {line + 1}, byte {ex.BytePositionInLine ?? 0})" : string.Empty;
        if (message.Contains("could not be mapped to any .NET member", StringComparison.Ordinal))
        {
            return new ScenarioError(path, $"unknown field{where}; check its spelling against docs/emulator.md");
        }

        foreach (var (type, expected) in ExpectedValues)
        {
            if (message.EndsWith($"could not be converted to {type}.", StringComparison.Ordinal))
            {
                return new ScenarioError(path, $"invalid JSON{where}: expected {expected}");
            }
        }

        return new ScenarioError(path, $"invalid JSON{where}: {message}");
    }
}
