// SPDX-License-Identifier: Apache-2.0

using System.Text;
using Cicero.Emulator.Scenarios;
using Xunit.Abstractions;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// Issue 8 item 3, scenario files: random mutations of valid scenarios (characters flipped, dropped or inserted; values
/// replaced by nulls, wrong types, huge or negative numbers) either load or are rejected with a
/// <see cref="ScenarioValidationException"/> whose every error says where (a field path, or a line and byte).
/// </summary>
public sealed class ScenarioFuzzTests(ITestOutputHelper output)
{
    private static readonly string[] Replacements =
    [
        "null", "[]", "{}", "[null]", "\"\"", "\"x\"", "-1", "0", "1e308", "-1e308", "1e999", "99999999999999999999", "NaN",
        "true", "0.5", "\"fe\"", "[{}]", "{\"name\": null}", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    ];

    [Fact]
    public void Parse_MutatedScenarios_LoadOrFailWithALocation()
    {
        var random = new Random(20261122);
        var iterations = int.TryParse(Environment.GetEnvironmentVariable("CICERO_FUZZ_ITERATIONS"), out var n) && n > 0 ? n : 3_000;
        var sources = new[] { TestScenarios.Json(), OverloadScenario.Json(10, 20, 8, """[{ "name": "rc" }]"""), ScenarioLoader.ToJson(ScenarioLoader.LoadDefault()) };
        var loaded = 0;
        var rejected = 0;
        for (var i = 0; i < iterations; i++)
        {
            var json = Mutate(random, sources[i % sources.Length]);
            try
            {
                ScenarioLoader.Parse(json, "fuzz.json");
                loaded++;
            }
            catch (ScenarioValidationException ex)
            {
                rejected++;
                Assert.NotEmpty(ex.Errors);
                // Where: a field path, a line and byte, or (for a document that is just null) the whole file.
                Assert.All(ex.Errors, e => Assert.True(
                    e.Path.Length > 0 || e.Message.Contains("(line ", StringComparison.Ordinal) || e.Message.StartsWith("the scenario is null", StringComparison.Ordinal),
                    $"input {i}: '{e}' does not say where"));
            }
            catch (Exception ex)
            {
                Assert.Fail($"input {i} threw {ex.GetType().Name}: {ex.Message}\n{json}");
            }
        }

        output.WriteLine(FormattableString.Invariant($"{iterations:N0} mutated scenarios: {loaded:N0} loaded, {rejected:N0} rejected with a location"));
        Assert.True(loaded > 0 && rejected > 0);
    }

    private static string Mutate(Random random, string json)
    {
        var text = new StringBuilder(json);
        for (var edits = random.Next(1, 4); edits > 0; edits--)
        {
            var at = random.Next(text.Length);
            switch (random.Next(4))
            {
                case 0:
                    text[at] = "{}[]\",:0123456789-.eE nul"[random.Next(25)];
                    break;
                case 1:
                    text.Remove(at, Math.Min(random.Next(1, 8), text.Length - at));
                    break;
                case 2:
                    text.Insert(at, "{}[]\",:0-.e"[random.Next(11)]);
                    break;
                default:
                    ReplaceValue(random, text, at);
                    break;
            }
        }

        return text.ToString();
    }

    /// <summary>Replaces the value after the next colon, up to the next comma or closing brace, with an odd one.</summary>
    private static void ReplaceValue(Random random, StringBuilder text, int from)
    {
        var json = text.ToString();
        var colon = json.IndexOf(':', from);
        if (colon < 0)
        {
            return;
        }

        var end = json.IndexOfAny([',', '}', '\n'], colon + 1);
        if (end < 0)
        {
            return;
        }

        text.Remove(colon + 1, end - colon - 1);
        text.Insert(colon + 1, " " + Replacements[random.Next(Replacements.Length)]);
    }
}
