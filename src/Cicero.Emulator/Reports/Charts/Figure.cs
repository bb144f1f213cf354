// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// One figure of the report: a grid of panels sharing both axes so they compare at a glance, with one legend for the
/// series (workflows, in one style each across every figure).
/// </summary>
/// <param name="Id">The file-name stem: <c>latency</c>, <c>throughput</c>, <c>sigma-fe</c>, ...</param>
/// <param name="Title">The title above the panels.</param>
/// <param name="XLabel">The x axis' label, with its unit.</param>
/// <param name="YLabel">The y axis' label, with its unit.</param>
/// <param name="YScale">How y maps.</param>
/// <param name="Panels">The panels, row by row.</param>
/// <param name="Legend">The series names and styles.</param>
/// <param name="XMax">The right end of the x axis; it starts at 0 unless <see cref="XMin"/> says otherwise.</param>
/// <param name="Markers">x values to mark with a dashed line (the end of the warm-up and of the workloads).</param>
internal sealed record Figure(
    string Id,
    string Title,
    string XLabel,
    string YLabel,
    AxisScale YScale,
    IReadOnlyList<FigurePanel> Panels,
    IReadOnlyList<(string Name, SeriesStyle Style)> Legend,
    double XMax,
    IReadOnlyList<double> Markers)
{
    /// <summary>Gets the number of panels per row; all in one row by default.</summary>
    public int Columns { get; init; } = Math.Max(1, Panels.Count);

    /// <summary>Gets the left end of the x axis.</summary>
    public double XMin { get; init; }

    /// <summary>Gets a sentence under the figure (what is left out, what the lines mean); none by default.</summary>
    public string? Caption { get; init; }
}
