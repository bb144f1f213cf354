// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using ScottPlot;
using SkiaSharp;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// Draws a <see cref="Figure"/> with ScottPlot: a title and a shared legend on top, then a grid of panels (ScottPlot
/// plots) sharing both axes, rendered at twice the logical size for high-DPI screens and print.
/// </summary>
/// <remarks>
/// Log axes plot log10 of the values with decade ticks labelled in the values' units, ScottPlot's usual way; NaN values
/// are gaps (each run of finite values is its own line). A panel names the series drawn on top of each other
/// (<see cref="SeriesOverlap"/>), so no line is hidden without a note.
/// </remarks>
internal static class FigureRenderer
{
    /// <summary>Pixels per logical pixel of the PNG.</summary>
    public const int Scale = 2;

    /// <summary>The logical width of a figure of up to three columns.</summary>
    public const int MinimumWidth = 1200;

    private const int PanelWidth = 400;
    private const int TitleHeight = 34;
    private const int LegendRowHeight = 26;
    private const float TitleSize = 18;
    private const float TextSize = 13;

    private static readonly string[] SansFamilies = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial", "Helvetica"];

    /// <summary>Gets the logical height of one row of panels for <paramref name="figure"/>: shorter rows for tall grids.</summary>
    public static int PanelHeight(Figure figure) => Rows(figure) > 2 ? 190 : 340;

    /// <summary>Gets the figure's logical size (the PNG is <see cref="Scale"/> times larger).</summary>
    public static (int Width, int Height) Size(Figure figure)
    {
        ArgumentNullException.ThrowIfNull(figure);
        var width = Math.Max(MinimumWidth, figure.Columns * PanelWidth);
        return (width, HeaderHeight(figure, width) + (Rows(figure) * PanelHeight(figure)));
    }

    /// <summary>Renders the figure as PNG bytes; the same figure gives the same bytes.</summary>
    public static byte[] RenderPng(Figure figure)
    {
        ArgumentNullException.ThrowIfNull(figure);
        var (width, height) = Size(figure);
        var font = FontFamily();
        // Opaque: the PNG is RGB, a quarter smaller than RGBA.
        using var surface = SKSurface.Create(new SKImageInfo(width * Scale, height * Scale, SKColorType.Rgba8888, SKAlphaType.Opaque));
        var canvas = surface.Canvas;
        canvas.Clear(SKColors.White);
        var header = HeaderHeight(figure, width);
        DrawHeader(canvas, figure, width, font);

        var (yMin, yMax) = YLimits(figure);
        var columns = figure.Columns;
        var panelWidth = width / (double)columns;
        var panelHeight = PanelHeight(figure);
        for (var p = 0; p < figure.Panels.Count; p++)
        {
            var plot = BuildPlot(figure, figure.Panels[p], yMin, yMax, font, bottomRow: p / columns == Rows(figure) - 1, leftColumn: p % columns == 0);
            var left = (float)(p % columns * panelWidth * Scale);
            var top = (float)(header + (p / columns * panelHeight)) * Scale;
            // A plot clears its whole canvas before drawing: clip it to its panel.
            var rect = new PixelRect(left, left + (float)(panelWidth * Scale), top + (panelHeight * Scale), top);
            canvas.Save();
            canvas.ClipRect(new SKRect(rect.Left, rect.Top, rect.Right, rect.Bottom));
            plot.Render(canvas, rect);
            canvas.Restore();
        }

        using var image = surface.Snapshot();
        using var pixels = image.PeekPixels() ?? throw new InvalidOperationException("A raster surface has pixels to read.");

        // Every filter: the figures go inline into the HTML, so their size matters (deflate level 9 saved little more and took longer).
        using var data = pixels.Encode(new SKPngEncoderOptions(SKPngEncoderFilterFlags.AllFilters, zLibLevel: 6))
            ?? throw new InvalidOperationException("Skia could not encode the figure as PNG.");
        return data.ToArray();
    }

    private static int Rows(Figure figure) => Math.Max(1, (figure.Panels.Count + figure.Columns - 1) / figure.Columns);

    private static int HeaderHeight(Figure figure, int width) =>
        TitleHeight + (LegendRows(figure, width) * LegendRowHeight) + (figure.Caption is null ? 0 : LegendRowHeight) + 6;

    private static int LegendRows(Figure figure, int width)
    {
        var rows = figure.Legend.Count == 0 ? 0 : 1;
        var x = 12.0;
        foreach (var (name, _) in figure.Legend)
        {
            var entry = LegendEntryWidth(name);
            if (x + entry > width - 12 && x > 12)
            {
                rows++;
                x = 12;
            }

            x += entry;
        }

        return rows;
    }

    private static double LegendEntryWidth(string name) => 60 + (8.5 * name.Length);

    private static void DrawHeader(SKCanvas canvas, Figure figure, int width, string font)
    {
        using var typeface = SKTypeface.FromFamilyName(font);
        using var bold = SKTypeface.FromFamilyName(font, SKFontStyle.Bold);
        using var titleFont = new SKFont(bold, TitleSize * Scale);
        using var textFont = new SKFont(typeface, TextSize * Scale);
        using var ink = new SKPaint { Color = new SKColor(0x22, 0x22, 0x22), IsAntialias = true };
        canvas.DrawText(figure.Title, width * Scale / 2f, 24 * Scale, SKTextAlign.Center, titleFont, ink);

        // ScottPlot draws the legend (line, pattern and marker as in the panels) in a frameless plot of its own.
        var legendRows = LegendRows(figure, width);
        if (legendRows > 0)
        {
            var legend = new Plot { ScaleFactor = Scale };
            legend.Font.Set(font);
            legend.Layout.Frameless();
            legend.Axes.Frameless();
            legend.HideGrid();
            foreach (var (name, style) in figure.Legend)
            {
                legend.Legend.ManualItems.Add(new LegendItem
                {
                    LabelText = name,
                    LineColor = Color.FromHex(style.Color),
                    LineWidth = 2,
                    LinePattern = Pattern(style.Pattern),
                    MarkerShape = style.Marker,
                    MarkerFillColor = Color.FromHex(style.Color),
                    MarkerLineColor = Color.FromHex(style.Color),
                    MarkerSize = 7,
                });
            }

            legend.ShowLegend(Alignment.UpperLeft, Orientation.Horizontal);
            legend.Legend.FontSize = TextSize;
            legend.Legend.OutlineWidth = 0;
            legend.Legend.Margin = new PixelPadding(4, 4, 0, 0);
            legend.Legend.Padding = new PixelPadding(4, 4, 2, 2);
            legend.Legend.ShadowColor = Colors.Transparent;
            legend.Legend.BackgroundColor = Colors.White;
            var top = TitleHeight * Scale;
            var rect = new PixelRect(0, width * Scale, top + (legendRows * LegendRowHeight * Scale), top);
            canvas.Save();
            canvas.ClipRect(new SKRect(rect.Left, rect.Top, rect.Right, rect.Bottom));
            legend.Render(canvas, rect);
            canvas.Restore();
        }

        var y = TitleHeight + ((legendRows - 0.5) * LegendRowHeight);
        if (figure.Caption is { } caption)
        {
            using var muted = new SKPaint { Color = new SKColor(0x55, 0x55, 0x55), IsAntialias = true };
            canvas.DrawText(caption, 12 * Scale, (float)(y + LegendRowHeight + 4) * Scale, SKTextAlign.Left, textFont, muted);
        }
    }

    private static Plot BuildPlot(Figure figure, FigurePanel panel, double yMin, double yMax, string font, bool bottomRow, bool leftColumn)
    {
        var plot = new Plot { ScaleFactor = Scale };
        plot.Font.Set(font);
        plot.Title(panel.Title, size: 14);
        plot.Axes.Title.Label.Bold = true;
        if (bottomRow)
        {
            plot.XLabel(figure.XLabel, size: 13);
        }

        if (leftColumn)
        {
            plot.YLabel(figure.YLabel, size: 13);
        }

        var log = figure.YScale == AxisScale.Logarithmic;
        if (log)
        {
            var ticks = new ScottPlot.TickGenerators.NumericAutomatic
            {
                MinorTickGenerator = new ScottPlot.TickGenerators.LogMinorTickGenerator(),
                IntegerTicksOnly = true,
                LabelFormatter = static y => Format(Math.Pow(10, y)),
            };
            plot.Axes.Left.TickGenerator = ticks;
        }
        else
        {
            plot.Axes.Left.TickGenerator = new ScottPlot.TickGenerators.NumericAutomatic { LabelFormatter = Format };
        }

        plot.Grid.MajorLineColor = Color.FromHex("#e6e6e6");
        foreach (var marker in figure.Markers)
        {
            var line = plot.Add.VerticalLine(marker, 1, Color.FromHex("#9a9a9a"), ScottPlot.LinePattern.Dashed);
            line.ExcludeFromLegend = true;
        }

        var any = false;
        foreach (var series in panel.Series)
        {
            any |= AddSeries(plot, series, log);
        }

        var note = !any ? panel.EmptyNote : panel.Note;
        if (note is not null)
        {
            var annotation = plot.Add.Annotation(note, Alignment.UpperLeft);
            annotation.LabelFontSize = 11;
            annotation.LabelBackgroundColor = Colors.White.WithAlpha(0.85);
            annotation.LabelBorderColor = Color.FromHex("#bbbbbb");
            annotation.LabelShadowColor = Colors.Transparent;
            annotation.LabelFontColor = Color.FromHex("#333333");
        }

        plot.Axes.SetLimits(figure.XMin, figure.XMax, log ? Math.Log10(yMin) : yMin, log ? Math.Log10(yMax) : yMax);
        return plot;
    }

    private static bool AddSeries(Plot plot, ChartSeries series, bool log)
    {
        var any = false;
        var xs = new List<double>();
        var ys = new List<double>();
        void Flush()
        {
            if (xs.Count == 0)
            {
                return;
            }

            var scatter = plot.Add.Scatter(xs.ToArray(), ys.ToArray(), Color.FromHex(series.Style.Color));
            scatter.LineWidth = 2;
            scatter.LinePattern = Pattern(series.Style.Pattern);

            // A marker on every point of a long series is a smear; a handful identify the line.
            scatter.MarkerShape = xs.Count <= 40 ? series.Style.Marker : MarkerShape.None;
            scatter.MarkerSize = 6;
            if (xs.Count > 40 && series.Style.Marker != MarkerShape.None)
            {
                var step = Math.Max(1, xs.Count / 8);
                var mx = new List<double>();
                var my = new List<double>();
                for (var i = step / 2; i < xs.Count; i += step)
                {
                    mx.Add(xs[i]);
                    my.Add(ys[i]);
                }

                var markers = plot.Add.ScatterPoints(mx.ToArray(), my.ToArray(), Color.FromHex(series.Style.Color));
                markers.MarkerShape = series.Style.Marker;
                markers.MarkerSize = 7;
            }

            xs.Clear();
            ys.Clear();
        }

        for (var i = 0; i < series.Xs.Length; i++)
        {
            var y = series.Ys[i];
            if (!double.IsFinite(y) || (log && y <= 0))
            {
                Flush();
                continue;
            }

            xs.Add(series.Xs[i]);
            ys.Add(log ? Math.Log10(y) : y);
            any = true;
        }

        Flush();
        return any;
    }

    private static LinePattern Pattern(LineKind kind) => kind switch
    {
        LineKind.Dashed => LinePattern.Dashed,
        LineKind.Dotted => LinePattern.Dotted,
        _ => LinePattern.Solid,
    };

    /// <summary>Gets the y axis' range shared by every panel: whole decades around the values on a log axis, zero to a bit above the largest on a linear one.</summary>
    public static (double Min, double Max) YLimits(Figure figure)
    {
        ArgumentNullException.ThrowIfNull(figure);
        var min = double.PositiveInfinity;
        var max = double.NegativeInfinity;
        foreach (var series in figure.Panels.SelectMany(static p => p.Series))
        {
            foreach (var y in series.Ys)
            {
                if (double.IsFinite(y) && (figure.YScale == AxisScale.Linear || y > 0))
                {
                    min = Math.Min(min, y);
                    max = Math.Max(max, y);
                }
            }
        }

        if (figure.YScale == AxisScale.Logarithmic)
        {
            if (!double.IsFinite(min))
            {
                return (1, 10);
            }

            var low = Math.Floor(Math.Log10(min));
            var high = Math.Ceiling(Math.Log10(max));
            return (Math.Pow(10, low), Math.Pow(10, high > low ? high : low + 1));
        }

        return (Math.Min(0, double.IsFinite(min) ? min : 0), double.IsFinite(max) && max > 0 ? max * 1.08 : 1);
    }

    /// <summary>Formats a tick value compactly: 0.5, 20, 1.5k, 2M.</summary>
    public static string Format(double value)
    {
        var magnitude = Math.Abs(value);
        return magnitude switch
        {
            >= 1e6 => (value / 1e6).ToString("0.##", CultureInfo.InvariantCulture) + "M",
            >= 1e3 => (value / 1e3).ToString("0.##", CultureInfo.InvariantCulture) + "k",
            >= 1 or 0 => value.ToString("0.##", CultureInfo.InvariantCulture),
            _ => value.ToString("0.###", CultureInfo.InvariantCulture),
        };
    }

    private static string FontFamily()
    {
        var families = SKFontManager.Default.FontFamilies.ToHashSet(StringComparer.OrdinalIgnoreCase);
        return SansFamilies.FirstOrDefault(families.Contains) ?? Fonts.Default;
    }
}
