// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Charts;

namespace Cicero.Emulator.Reports.Imaging;

/// <summary>Draws on an <see cref="RgbImage"/>: anti-aliased strokes and the built-in bitmap font.</summary>
internal sealed class RasterCanvas(RgbImage image) : IChartCanvas
{
    private const double DashLength = 6;
    private const double GapLength = 4;

    public RgbImage Image { get; } = image;

    public void FillRectangle(double x, double y, double width, double height, Rgb color) => Image.FillRectangle(x, y, width, height, color);

    public void Line(double x1, double y1, double x2, double y2, Rgb color, double width, bool dashed = false)
    {
        // One-pixel axis-aligned lines sit on pixel centres, so they come out crisp instead of two half-tone pixels.
        if (width <= 1 && (x1 == x2 || y1 == y2))
        {
            (x1, x2) = x1 == x2 ? (Math.Floor(x1) + 0.5, Math.Floor(x2) + 0.5) : (x1, x2);
            (y1, y2) = y1 == y2 ? (Math.Floor(y1) + 0.5, Math.Floor(y2) + 0.5) : (y1, y2);
        }

        if (!dashed)
        {
            Image.DrawLine(x1, y1, x2, y2, color, width);
            return;
        }

        var length = Math.Sqrt(((x2 - x1) * (x2 - x1)) + ((y2 - y1) * (y2 - y1)));
        for (var start = 0.0; start < length; start += DashLength + GapLength)
        {
            var end = Math.Min(length, start + DashLength);
            Image.DrawLine(
                x1 + ((x2 - x1) * start / length),
                y1 + ((y2 - y1) * start / length),
                x1 + ((x2 - x1) * end / length),
                y1 + ((y2 - y1) * end / length),
                color,
                width);
        }
    }

    public void Polyline(ReadOnlySpan<double> xs, ReadOnlySpan<double> ys, Rgb color, double width) => Image.DrawPolyline(xs, ys, color, width);

    public void Text(double x, double y, string text, int scale, Rgb color, TextAnchor anchor, bool vertical = false)
    {
        var length = BitmapFont.MeasureWidth(text, scale);
        var shift = anchor switch
        {
            TextAnchor.Start => 0,
            TextAnchor.Middle => length / 2,
            _ => length,
        };

        // Centre the glyph body (rows 0-6, 7 font pixels) on the given line.
        var across = (int)Math.Round(3.5 * scale);
        if (vertical)
        {
            BitmapFont.Draw(Image, (int)Math.Round(x) - across, (int)Math.Round(y) + shift, text, scale, color, vertical: true);
        }
        else
        {
            BitmapFont.Draw(Image, (int)Math.Round(x) - shift, (int)Math.Round(y) - across, text, scale, color);
        }
    }
}
