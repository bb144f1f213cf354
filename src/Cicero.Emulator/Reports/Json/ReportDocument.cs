// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Reports.Json;

/// <summary>The root of <c>results.json</c>: the scenario as run and every configuration's result.</summary>
internal sealed class ReportDocument
{
    /// <summary>Gets the format's version, raised when a field changes meaning.</summary>
    public int FormatVersion { get; init; } = 1;

    public required string Scenario { get; init; }

    /// <summary>Gets the scenario definition that was run (with defaults filled in and command-line overrides applied), when known.</summary>
    public ScenarioSpec? Definition { get; init; }

    public required IReadOnlyList<TopologyRunResult> Runs { get; init; }

    /// <summary>Gets why the report is partial (stopped by Ctrl-C, say); absent when complete.</summary>
    public string? Partial { get; init; }
}
