// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Traces;

/// <summary>
/// Where the tests find their inputs: the shared public trace samples (never copied into the repository) and the
/// repository's own <c>traces/</c> folder.
/// </summary>
internal static class TraceTestFiles
{
    /// <summary>Overrides where the shared samples are; by default the first ancestor of the test assembly holding <c>shared/traces-public</c>.</summary>
    public const string PublicTracesVariable = "CICERO_TRACES_PUBLIC";

    public static string PublicTraces { get; } = FindPublicTraces();

    public static string MetaBlock => Path.Combine(PublicTraces, "meta-cachelib-traces", "block_traces_1.csv");

    public static string MetaKv(int file) => Path.Combine(PublicTraces, "meta-cachelib-traces", $"kv_traces_{file}.csv");

    public static string AzureLlm => Path.Combine(PublicTraces, "azure-public-dataset", "AzureLLMInferenceTrace_code.csv");

    /// <summary>Gets the repository's <c>traces/</c> folder (the ancestor holding <c>Cicero.sln</c>).</summary>
    public static string RepositoryTraces
    {
        get
        {
            for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, "Cicero.sln")))
                {
                    return Path.Combine(dir.FullName, "traces");
                }
            }

            throw new DirectoryNotFoundException($"No ancestor of {AppContext.BaseDirectory} holds Cicero.sln.");
        }
    }

    /// <summary>Reads a CSV the trivial way (split at commas), as the independent oracle for importer tests.</summary>
    public static (string[] Header, List<string[]> Rows) ReadCsv(string path)
    {
        var lines = File.ReadAllText(path).Replace("\r", string.Empty, StringComparison.Ordinal).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        return (lines[0].Split(','), lines.Skip(1).Select(l => l.Split(',')).ToList());
    }

    private static string FindPublicTraces()
    {
        if (Environment.GetEnvironmentVariable(PublicTracesVariable) is { Length: > 0 } configured)
        {
            return configured;
        }

        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "shared", "traces-public");
            if (Directory.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new DirectoryNotFoundException(
            $"The public trace samples were not found: no ancestor of {AppContext.BaseDirectory} holds shared/traces-public. Set {PublicTracesVariable} to the folder.");
    }
}
