// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// The report's series styles: the Okabe-Ito colours (distinct under the common colour-vision deficiencies) without
/// their yellow, which has too little contrast on white; the first seven series are solid, the next seven dashed, then
/// dotted, and every series has its own marker, so twelve or more stay apart in colour, in greyscale and in print.
/// </summary>
internal static class SeriesPalette
{
    private static readonly string[] Colors = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#000000"];

    private static readonly ScottPlot.MarkerShape[] Markers =
    [
        ScottPlot.MarkerShape.FilledCircle, ScottPlot.MarkerShape.FilledSquare, ScottPlot.MarkerShape.FilledTriangleUp,
        ScottPlot.MarkerShape.FilledDiamond, ScottPlot.MarkerShape.OpenCircle, ScottPlot.MarkerShape.OpenSquare,
        ScottPlot.MarkerShape.OpenTriangleDown, ScottPlot.MarkerShape.Eks, ScottPlot.MarkerShape.Cross,
        ScottPlot.MarkerShape.OpenDiamond, ScottPlot.MarkerShape.FilledTriangleDown, ScottPlot.MarkerShape.Asterisk,
        ScottPlot.MarkerShape.OpenTriangleUp,
    ];

    private static readonly LineKind[] Patterns = [LineKind.Solid, LineKind.Dashed, LineKind.Dotted];

    /// <summary>Gets the style of the series at <paramref name="index"/>: a different colour, pattern or marker for each of the first 21.</summary>
    public static SeriesStyle Of(int index)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        return new SeriesStyle(
            Colors[index % Colors.Length],
            Patterns[index / Colors.Length % Patterns.Length],
            Markers[index % Markers.Length]);
    }
}
