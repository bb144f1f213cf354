// SPDX-License-Identifier: Apache-2.0

using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// The committed result files docs/reproduction.md is rendered from: one JSON file per generated section (its tables and
/// its claims), under <c>results/reproduction/</c> at full size and <c>results/reproduction/reduced/</c> at CI size.
/// </summary>
public static class ReproductionResults
{
    // Unescaped non-ASCII (≈, ±, →) keeps the committed files readable in a diff; they are never embedded in HTML.
    private static readonly ReproductionJsonContext Json = new(new JsonSerializerOptions
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        WriteIndented = true,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Converters = { new JsonStringEnumConverter<ReproductionVerdict>() },
    });

    /// <summary>Gets the folder of the full-size results, relative to the repository root.</summary>
    public static string FullDirectory { get; } = Path.Combine("results", "reproduction");

    /// <summary>Gets the folder of the reduced (CI-size) results, relative to the repository root.</summary>
    public static string ReducedDirectory { get; } = Path.Combine("results", "reproduction", "reduced");

    /// <summary>Writes one section to <c>directory/ID.json</c>, creating the folder.</summary>
    /// <param name="directory">The results folder.</param>
    /// <param name="section">The section.</param>
    public static void Write(string directory, ReproductionSection section)
    {
        ArgumentNullException.ThrowIfNull(section);
        Directory.CreateDirectory(directory);
        File.WriteAllText(Path.Combine(directory, section.Id + ".json"), Serialize(section));
    }

    /// <summary>Gets a section's file text, as <see cref="Write"/> writes it.</summary>
    /// <param name="section">The section.</param>
    /// <returns>Indented JSON ending in a newline.</returns>
    public static string Serialize(ReproductionSection section) =>
        JsonSerializer.Serialize(section, Json.ReproductionSection).ReplaceLineEndings("\n") + "\n";

    /// <summary>Reads every section file of a folder (not its subfolders), in file-name order.</summary>
    /// <param name="directory">The results folder.</param>
    /// <returns>The sections; none when the folder does not exist.</returns>
    /// <exception cref="FormatException">A file is not a section.</exception>
    public static IReadOnlyList<ReproductionSection> Read(string directory)
    {
        if (!Directory.Exists(directory))
        {
            return [];
        }

        var sections = new List<ReproductionSection>();
        foreach (var file in Directory.GetFiles(directory, "*.json").Order(StringComparer.Ordinal))
        {
            try
            {
                sections.Add(JsonSerializer.Deserialize(File.ReadAllText(file), Json.ReproductionSection)
                    ?? throw new FormatException($"{file}: empty."));
            }
            catch (JsonException ex)
            {
                throw new FormatException($"{file}: not a reproduction section ({ex.Message}).", ex);
            }
        }

        return sections;
    }

    /// <summary>Gets the command-line arguments that regenerate one section.</summary>
    /// <param name="id">The section's marker name.</param>
    /// <returns>For example <c>--only c3 --sections c3-main</c>.</returns>
    public static string Command(string id) => id switch
    {
        "deadline-closed" or "deadline-open" => "--only deadline",
        "deadline-sweep" => "--only sweep",
        _ when id.StartsWith("c3-", StringComparison.Ordinal) && id != "c3-topology" => "--only c3 --sections " + id,
        _ => "--only scenarios --sections " + id,
    };
}
