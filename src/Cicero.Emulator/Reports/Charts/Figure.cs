// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Imaging;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// One figure of the report: a row of panels, one per configuration, sharing both axes so they compare at a glance,
/// with one legend for the series (workflows, in one colour each across every figure).
/// </summary>
/// <param name="Id">The file-name stem: <c>latency</c>, <c>throughput</c>, <c>sigma-fe</c>, ...</param>
/// <param name="Title">The title above the panels.</param>
/// <param name="XLabel">The x axis' label.</param>
/// <param name="YLabel">The y axis' label.</param>
/// <param name="YScale">How y maps.</param>
/// <param name="Panels">The panels, left to right.</param>
/// <param name="Legend">The series names and colours.</param>
/// <param name="XMax">The right end of the x axis; it starts at 0.</param>
/// <param name="Markers">x values to mark with a dashed line (the end of the warm-up and of the workloads).</param>
internal sealed record Figure(
    string Id,
    string Title,
    string XLabel,
    string YLabel,
    AxisScale YScale,
    IReadOnlyList<FigurePanel> Panels,
    IReadOnlyList<(string Name, Rgb Color)> Legend,
    double XMax,
    IReadOnlyList<double> Markers);
