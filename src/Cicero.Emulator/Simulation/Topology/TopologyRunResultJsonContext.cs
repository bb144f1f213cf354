// SPDX-License-Identifier: Apache-2.0

using System.Text.Json.Serialization;
using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Source-generated JSON metadata for run results, with the same options as the scenario files' context
/// (<see cref="EmulatorJsonContext"/>), which sits below the simulation and so cannot name its results.
/// </summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    ReadCommentHandling = System.Text.Json.JsonCommentHandling.Skip,
    AllowTrailingCommas = true,
    UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
    NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    WriteIndented = true)]
[JsonSerializable(typeof(TopologyRunResult))]
[JsonSerializable(typeof(List<TopologyRunResult>))]
internal sealed partial class TopologyRunResultJsonContext : JsonSerializerContext
{
}
