// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>How one series is drawn: a colour, a line pattern and a marker, so series stay distinct without colour vision.</summary>
/// <param name="Color">The colour, <c>#rrggbb</c>.</param>
/// <param name="Pattern">The line's pattern.</param>
/// <param name="Marker">The marker drawn at every few points.</param>
internal readonly record struct SeriesStyle(string Color, LineKind Pattern, ScottPlot.MarkerShape Marker)
{
    /// <summary>Gets the style of a reference line (a workflow's offered load beside its σ): dark grey, dashed, no marker.</summary>
    public static SeriesStyle Reference => new("#444444", LineKind.Dashed, ScottPlot.MarkerShape.None);
}
