// SPDX-License-Identifier: Apache-2.0

using System.Text.Json.Serialization;

namespace Cicero.Emulator.Reports.Json;

/// <summary>
/// Source-generated metadata for <c>results.json</c>, with the same conventions as run results' own JSON
/// (camelCase, NaN written as the string "NaN" so the file stays standard JSON, nulls left out, indented).
/// </summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    WriteIndented = true)]
[JsonSerializable(typeof(ReportDocument))]
internal sealed partial class ReportJsonContext : JsonSerializerContext
{
}
