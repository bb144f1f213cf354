// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Charts;
using Cicero.Emulator.Reports.Imaging;

namespace Cicero.Emulator.Tests.Reports.Imaging;

public sealed class RasterTests
{
    private static readonly Rgb Red = new(255, 0, 0);

    [Fact]
    public void DrawLine_HorizontalTwoPixelsWide_CoversItsRowsFullyAndNothingFar()
    {
        var image = new RgbImage(40, 20, Rgb.White);

        image.DrawLine(5, 10, 35, 10, Red, 2);

        // Rows 9 and 10 lie inside the stroke [9, 11); rows 7 and 13 are more than a pixel away.
        Assert.Equal(Red, image[20, 9]);
        Assert.Equal(Red, image[20, 10]);
        Assert.Equal(Rgb.White, image[20, 7]);
        Assert.Equal(Rgb.White, image[20, 13]);
        Assert.Equal(Rgb.White, image[39, 10]);
    }

    [Fact]
    public void DrawPolyline_Joints_AreNotDarkerThanTheStroke()
    {
        var joined = new RgbImage(40, 40, Rgb.White);
        var gray = new Rgb(100, 100, 100);

        joined.DrawPolyline([5, 20, 35], [20, 20, 20], gray, 3);

        // Two segments meet at x = 20; their overlap must blend once, like the rest of the line.
        Assert.Equal(joined[10, 20], joined[20, 20]);
        Assert.Equal(gray, joined[20, 20]);
    }

    [Fact]
    public void BitmapFont_PrintableAscii_HasInkExceptSpace()
    {
        for (var c = '!'; c <= '~'; c++)
        {
            Assert.NotEqual(0UL, BitmapFont.GlyphOf(c));
        }

        Assert.Equal(0UL, BitmapFont.GlyphOf(' '));
        Assert.Equal(BitmapFont.GlyphOf('?'), BitmapFont.GlyphOf('☃'));
        Assert.NotEqual(BitmapFont.GlyphOf('?'), BitmapFont.GlyphOf('σ'));
    }

    [Fact]
    public void BitmapFont_Draw_StaysInsideTheMeasuredBox()
    {
        var image = new RgbImage(100, 40, Rgb.White);
        const string text = "p99 Ag|";

        BitmapFont.Draw(image, 10, 10, text, 2, Rgb.Black);

        var width = BitmapFont.MeasureWidth(text, 2);
        var inked = 0;
        for (var y = 0; y < image.Height; y++)
        {
            for (var x = 0; x < image.Width; x++)
            {
                if (image[x, y] != Rgb.White)
                {
                    inked++;
                    Assert.InRange(x, 10, 10 + width - 1);
                    Assert.InRange(y, 10, 10 + (BitmapFont.CellHeight * 2) - 1);
                }
            }
        }

        Assert.True(inked > 50);
    }

    [Fact]
    public void RasterCanvas_VerticalText_RunsUpwardsFromItsAnchor()
    {
        var image = new RgbImage(40, 100, Rgb.White);

        new RasterCanvas(image).Text(20, 50, "IIII", 1, Rgb.Black, TextAnchor.Middle, vertical: true);

        var rows = Enumerable.Range(0, image.Height).Where(y => Enumerable.Range(0, image.Width).Any(x => image[x, y] != Rgb.White)).ToList();
        var length = BitmapFont.MeasureWidth("IIII", 1);
        Assert.InRange(rows.Min(), 50 - (length / 2) - 1, 50 - (length / 2) + 1);
        Assert.InRange(rows.Max(), 50 + (length / 2) - 2, 50 + (length / 2));
    }
}
