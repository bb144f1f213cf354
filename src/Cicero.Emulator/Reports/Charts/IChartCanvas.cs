// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Imaging;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// The few drawing operations a chart needs, in pixels from the top-left corner. <see cref="FigureRenderer"/> lays a
/// figure out once against this interface, and the SVG and raster back ends draw the same layout, so the HTML report
/// and the PNG files show the same picture.
/// </summary>
internal interface IChartCanvas
{
    void FillRectangle(double x, double y, double width, double height, Rgb color);

    void Line(double x1, double y1, double x2, double y2, Rgb color, double width, bool dashed = false);

    /// <summary>Draws connected segments through the points (at least one).</summary>
    void Polyline(ReadOnlySpan<double> xs, ReadOnlySpan<double> ys, Rgb color, double width);

    /// <summary>
    /// Draws a label whose text cell is centred vertically on <paramref name="y"/> (horizontally on <paramref name="x"/>
    /// when <paramref name="vertical"/>, the text then running upwards), placed along its direction by <paramref name="anchor"/>.
    /// Its size <paramref name="scale"/> is the bitmap font's pixel scale; the SVG font size follows from it.
    /// </summary>
    void Text(double x, double y, string text, int scale, Rgb color, TextAnchor anchor, bool vertical = false);
}
