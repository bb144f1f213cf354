// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology;

/// <summary>What the <c>replay</c> command line asked for.</summary>
internal sealed record ReplaySettings(
    string? Trace,
    string? Format,
    string? Input,
    string? Scenario,
    string Configurations,
    double Capacity,
    int Seeds,
    int? Seed,
    IReadOnlyList<string> PolicyAssemblies,
    double? SpeedUp,
    int? Clients,
    string Runner,
    string Output);
