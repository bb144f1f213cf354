// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Net;
using System.Text;
using Cicero.Emulator.Reports.Imaging;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// Draws on an inline SVG element, to be embedded in the HTML report as it is: no namespace URL, fonts or styles from
/// outside, so the report stays one self-contained file. Coordinates are written with one decimal.
/// </summary>
internal sealed class SvgCanvas : IChartCanvas
{
    private readonly StringBuilder _svg = new();

    public SvgCanvas(int width, int height, string title)
    {
        Append($"<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{Escape(title)}\" font-family=\"Helvetica, Arial, sans-serif\">\n");
    }

    /// <summary>Closes the element and returns its markup.</summary>
    public string Complete() => _svg.Append("</svg>\n").ToString();

    public void FillRectangle(double x, double y, double width, double height, Rgb color) =>
        Append($"<rect x=\"{N(x)}\" y=\"{N(y)}\" width=\"{N(width)}\" height=\"{N(height)}\" fill=\"{color.ToHex()}\"/>\n");

    public void Line(double x1, double y1, double x2, double y2, Rgb color, double width, bool dashed = false) =>
        Append($"<line x1=\"{N(x1)}\" y1=\"{N(y1)}\" x2=\"{N(x2)}\" y2=\"{N(y2)}\" stroke=\"{color.ToHex()}\" stroke-width=\"{N(width)}\"{(dashed ? " stroke-dasharray=\"6 4\"" : string.Empty)}/>\n");

    public void Polyline(ReadOnlySpan<double> xs, ReadOnlySpan<double> ys, Rgb color, double width)
    {
        _svg.Append("<polyline fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\" stroke=\"").Append(color.ToHex())
            .Append("\" stroke-width=\"").Append(N(width)).Append("\" points=\"");
        for (var i = 0; i < xs.Length; i++)
        {
            _svg.Append(i == 0 ? string.Empty : " ").Append(N(xs[i])).Append(',').Append(N(ys[i]));
        }

        // A single point draws nothing as a polyline; repeat it so its round caps make a dot, as in the PNG.
        if (xs.Length == 1)
        {
            _svg.Append(' ').Append(N(xs[0])).Append(',').Append(N(ys[0]));
        }

        _svg.Append("\"/>\n");
    }

    public void Text(double x, double y, string text, int scale, Rgb color, TextAnchor anchor, bool vertical = false)
    {
        var anchorName = anchor switch
        {
            TextAnchor.Start => "start",
            TextAnchor.Middle => "middle",
            _ => "end",
        };

        // The bitmap font's cell is 8 pixels high per scale; a proportional font of about 6.5 pixels per scale matches its size.
        var size = (6.5 * scale) + 0.5;
        var rotation = vertical ? $" transform=\"rotate(-90 {N(x)} {N(y)})\"" : string.Empty;
        Append($"<text x=\"{N(x)}\" y=\"{N(y)}\" font-size=\"{N(size)}\" fill=\"{color.ToHex()}\" text-anchor=\"{anchorName}\" dominant-baseline=\"central\"{rotation}>{Escape(text)}</text>\n");
    }

    private static string N(double value) => Math.Round(value, 1).ToString("0.#", CultureInfo.InvariantCulture);

    private static string Escape(string text) => WebUtility.HtmlEncode(text);

    private void Append(string text) => _svg.Append(text);
}
