// SPDX-License-Identifier: Apache-2.0

using System.Text.Json.Serialization;

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// Source-generated JSON metadata for scenario files (results: TopologyRunResultJsonContext), so loading and writing need no reflection
/// (trimming- and AOT-safe). Unknown fields are errors, so a typo in a scenario fails loudly instead of being ignored.
/// </summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    ReadCommentHandling = System.Text.Json.JsonCommentHandling.Skip,
    AllowTrailingCommas = true,
    UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
    NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    WriteIndented = true)]
[JsonSerializable(typeof(ScenarioSpec))]
internal sealed partial class EmulatorJsonContext : JsonSerializerContext
{
}
