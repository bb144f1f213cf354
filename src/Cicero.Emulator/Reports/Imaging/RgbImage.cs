// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Imaging;

/// <summary>
/// A width × height RGB image, 3 bytes per pixel, rows top to bottom: the raster the chart renderer draws on and the
/// PNG encoder writes. Drawing blends with a coverage in [0, 1], which is how lines get their anti-aliased edges.
/// </summary>
internal sealed class RgbImage
{
    // Scratch space for one stroke's coverage, allocated on the first line and left all zero between strokes.
    private float[]? _coverage;

    public RgbImage(int width, int height, Rgb background)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(width, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(height, 1);
        Width = width;
        Height = height;
        Pixels = new byte[checked(width * height * 3)];
        for (var i = 0; i < Pixels.Length; i += 3)
        {
            Pixels[i] = background.R;
            Pixels[i + 1] = background.G;
            Pixels[i + 2] = background.B;
        }
    }

    public int Width { get; }

    public int Height { get; }

    /// <summary>Gets the pixels, row-major, R, G, B.</summary>
    public byte[] Pixels { get; }

    public Rgb this[int x, int y]
    {
        get
        {
            var i = ((y * Width) + x) * 3;
            return new Rgb(Pixels[i], Pixels[i + 1], Pixels[i + 2]);
        }
    }

    /// <summary>Mixes <paramref name="color"/> into a pixel by <paramref name="coverage"/>; pixels outside the image are ignored.</summary>
    public void Blend(int x, int y, Rgb color, double coverage)
    {
        if ((uint)x >= (uint)Width || (uint)y >= (uint)Height || coverage <= 0)
        {
            return;
        }

        var a = Math.Min(coverage, 1);
        var i = ((y * Width) + x) * 3;
        Pixels[i] = Mix(Pixels[i], color.R, a);
        Pixels[i + 1] = Mix(Pixels[i + 1], color.G, a);
        Pixels[i + 2] = Mix(Pixels[i + 2], color.B, a);
    }

    /// <summary>Fills the pixels whose centres lie in the rectangle.</summary>
    public void FillRectangle(double x, double y, double width, double height, Rgb color)
    {
        var x0 = Math.Max(0, (int)Math.Round(x));
        var y0 = Math.Max(0, (int)Math.Round(y));
        var x1 = Math.Min(Width, (int)Math.Round(x + width));
        var y1 = Math.Min(Height, (int)Math.Round(y + height));
        for (var py = y0; py < y1; py++)
        {
            for (var px = x0; px < x1; px++)
            {
                Blend(px, py, color, 1);
            }
        }
    }

    /// <summary>Draws a segment of the given width with round caps, anti-aliased.</summary>
    public void DrawLine(double x1, double y1, double x2, double y2, Rgb color, double width) =>
        DrawPolyline([x1, x2], [y1, y2], color, width);

    /// <summary>
    /// Draws connected segments of the given width with round caps and joins. Every pixel near the stroke is covered
    /// by how far its centre lies inside it (a one-pixel ramp that anti-aliases the edge). Coverage is gathered per
    /// pixel as the maximum over the segments, then blended once, so joints where segments overlap are not darker.
    /// Only each segment's bounding box is visited, which is cheap for the short segments charts are made of.
    /// </summary>
    public void DrawPolyline(ReadOnlySpan<double> xs, ReadOnlySpan<double> ys, Rgb color, double width)
    {
        if (xs.Length == 0)
        {
            return;
        }

        _coverage ??= new float[Width * Height];
        var half = width / 2;
        int minX = Width, minY = Height, maxX = -1, maxY = -1;
        for (var i = 0; i < xs.Length; i++)
        {
            var j = Math.Min(i + 1, xs.Length - 1);
            if (i > 0 && j == i)
            {
                break;
            }

            var (x1, y1, x2, y2) = (xs[i], ys[i], xs[j], ys[j]);
            var left = Math.Max(0, (int)Math.Floor(Math.Min(x1, x2) - half - 1));
            var right = Math.Min(Width - 1, (int)Math.Ceiling(Math.Max(x1, x2) + half + 1));
            var top = Math.Max(0, (int)Math.Floor(Math.Min(y1, y2) - half - 1));
            var bottom = Math.Min(Height - 1, (int)Math.Ceiling(Math.Max(y1, y2) + half + 1));
            (minX, minY, maxX, maxY) = (Math.Min(minX, left), Math.Min(minY, top), Math.Max(maxX, right), Math.Max(maxY, bottom));
            var dx = x2 - x1;
            var dy = y2 - y1;
            var lengthSquared = (dx * dx) + (dy * dy);
            for (var py = top; py <= bottom; py++)
            {
                for (var px = left; px <= right; px++)
                {
                    // Pixel (px, py) covers [px, px + 1) x [py, py + 1); measure from its centre to the segment.
                    var cx = px + 0.5 - x1;
                    var cy = py + 0.5 - y1;
                    var t = lengthSquared == 0 ? 0 : Math.Clamp(((cx * dx) + (cy * dy)) / lengthSquared, 0, 1);
                    var ex = cx - (t * dx);
                    var ey = cy - (t * dy);
                    var coverage = (float)Math.Min(1, half + 0.5 - Math.Sqrt((ex * ex) + (ey * ey)));
                    ref var cell = ref _coverage[(py * Width) + px];
                    cell = Math.Max(cell, coverage);
                }
            }
        }

        for (var py = minY; py <= maxY; py++)
        {
            for (var px = minX; px <= maxX; px++)
            {
                ref var cell = ref _coverage[(py * Width) + px];
                Blend(px, py, color, cell);
                cell = 0;
            }
        }
    }

    private static byte Mix(byte under, byte over, double alpha) => (byte)Math.Round(under + ((over - under) * alpha));
}
