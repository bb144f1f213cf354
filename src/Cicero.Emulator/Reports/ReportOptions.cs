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

    /// <summary>Gets or sets how the runs ran, for the report's wording: <c>simulated</c> or <c>live</c>.</summary>
    /// <value><c>simulated</c>.</value>
    public string Runner { get; set; } = "simulated";

    /// <summary>
    /// Gets or sets why the report is partial (the run was stopped by Ctrl-C, say, and which configurations did not run);
    /// the HTML opens with it and <c>results.json</c> carries it. A run with <see cref="Simulation.Topology.TopologyRunResult.Interrupted"/>
    /// set marks the report partial even without it.
    /// </summary>
    /// <value>None: complete, unless a run says otherwise.</value>
    public string? Partial { get; set; }

    /// <summary>
    /// Gets or sets the verdict over repeated runs (several seeds, or repeated live runs), one sentence per line, as the
    /// replay command judges it: the HTML shows it, with the spread it rests on, before the verdict on the runs shown.
    /// </summary>
    /// <value>None: the report judges the runs it shows alone.</value>
    public IReadOnlyList<string>? RepeatedRunsVerdict { get; set; }

    /// <summary>
    /// Gets or sets why the host itself was the bottleneck of a live run (its CPUs saturated, timers late, the thread pool
    /// queued): the differences between configurations then measure the machine, so the verdict names no best
    /// configuration and says this instead.
    /// </summary>
    /// <value>None: the host was not measured, or was not the bottleneck.</value>
    public string? HostBottleneck { get; set; }
}
