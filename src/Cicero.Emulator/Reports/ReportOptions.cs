// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Reports;

/// <summary>What goes into a report besides the runs.</summary>
public sealed class ReportOptions
{
    /// <summary>Gets or sets the scenario that was run; its description goes into the HTML and its definition into the JSON.</summary>
    /// <value>None: the report names the scenario from the runs only.</value>
    public ScenarioSpec? Scenario { get; set; }

    /// <summary>Gets or sets a value indicating whether the figures are also written as PNG files.</summary>
    /// <value><see langword="true"/>.</value>
    public bool WritePng { get; set; } = true;
}
