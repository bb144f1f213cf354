// SPDX-License-Identifier: Apache-2.0

using System.Text.Json;
using Cicero.Emulator.Scenarios;

namespace Cicero.StorageTopology;

/// <summary>
/// What <c>check --rate-control</c> sets in every rate-controlled configuration of a generated scenario: one JSON object of
/// <c>BottleneckFairnessOptions</c>' properties, as a scenario's <c>rateControl</c> object (docs/decisions/0021).
/// </summary>
/// <param name="Options">The object; the preset's options when <see langword="null"/>.</param>
internal sealed record RateControlTuning(JsonElement? Options)
{
    /// <summary>No tuning: the preset's options.</summary>
    public static RateControlTuning None { get; } = new((JsonElement?)null);

    /// <summary>Parses <c>--rate-control</c>'s value; returns the problem, or <see langword="null"/>.</summary>
    public static string? TryParse(string? text, out RateControlTuning tuning)
    {
        tuning = None;
        if (text is null)
        {
            return null;
        }

        try
        {
            using var document = JsonDocument.Parse(text);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                return $"--rate-control must be a JSON object of BottleneckFairnessOptions' properties, such as '{{\"overloadHold\": {{\"utilization\": 0.7}}}}', got {document.RootElement.ValueKind}.";
            }

            var candidate = new RateControlTuning(document.RootElement.Clone());

            // Checked once here, on a scenario of the emulator's own, so an unknown option or a value out of range is a
            // bad command line, not a failure of every seed.
            var probe = ScenarioLoader.LoadDefault();
            candidate.Apply(probe);
            var problems = ScenarioLoader.Validate(probe).Where(e => e.Path.EndsWith(".rateControl", StringComparison.Ordinal)).ToList();
            if (problems.Count > 0)
            {
                return "--rate-control: " + problems[0].Message;
            }

            tuning = candidate;
            return null;
        }
        catch (JsonException ex)
        {
            return "--rate-control is not valid JSON: " + ex.Message;
        }
    }

    public void Apply(ScenarioSpec scenario)
    {
        if (Options is not { } options)
        {
            return;
        }

        foreach (var configuration in scenario.Configurations!.Where(c => c.RateControl))
        {
            configuration.RateControlSettings = options;
        }
    }
}
