// SPDX-License-Identifier: Apache-2.0

using System.Text.Json;

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>Writes a sweep's per-seed verdicts as JSON: each seed's category, run seeds, and every clause with its margin and detail.</summary>
public static class GuaranteeJson
{
    /// <summary>Writes the reports.</summary>
    /// <param name="stream">Where to.</param>
    /// <param name="reports">The reports, with the wall time each check took.</param>
    public static void Write(Stream stream, IReadOnlyList<(GuaranteeReport Report, TimeSpan Wall)> reports)
    {
        ArgumentNullException.ThrowIfNull(stream);
        ArgumentNullException.ThrowIfNull(reports);
        using var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true });
        json.WriteStartObject();
        json.WriteString("summary", GuaranteeTally.Line(reports.Select(r => r.Report).ToArray()));
        json.WriteStartArray("seeds");
        foreach (var (report, wall) in reports)
        {
            json.WriteStartObject();
            json.WriteNumber("seed", report.Seed);
            json.WriteString("loadKind", report.LoadKind);
            json.WriteString("category", report.Category);
            json.WriteBoolean("passed", report.Passed);
            json.WriteNumber("wallSeconds", Math.Round(wall.TotalSeconds, 2));
            json.WriteNumber("runs", report.Runs);
            json.WriteStartArray("runSeeds");
            foreach (var seed in report.RunSeeds)
            {
                json.WriteNumberValue(seed);
            }

            json.WriteEndArray();
            json.WriteString("description", report.Description);
            json.WriteStartArray("clauses");
            foreach (var clause in report.Clauses)
            {
                json.WriteStartObject();
                json.WriteString("clause", clause.Name);
                json.WriteString("configuration", clause.Configuration);
                json.WriteBoolean("passed", clause.Passed);
                if (double.IsFinite(clause.Margin))
                {
                    json.WriteNumber("margin", Math.Round(clause.Margin, 4));
                }
                else
                {
                    json.WriteNull("margin");
                }

                json.WriteString("detail", clause.Detail);
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteStartArray("alwaysViolations");
            foreach (var violation in report.AlwaysViolations)
            {
                json.WriteStringValue(violation);
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        json.WriteEndArray();
        json.WriteEndObject();
    }
}
