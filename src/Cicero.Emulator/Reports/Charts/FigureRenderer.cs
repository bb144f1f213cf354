// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Imaging;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>
/// Lays a <see cref="Figure"/> out on a canvas: title, a row of panels sharing both axes, axis labels and a legend.
/// Text sizes follow the bitmap font (<see cref="BitmapFont"/>: 6 pixels per character at scale 1), so every label
/// fits in the PNG; the SVG's proportional font is narrower and fits too.
/// </summary>
internal static class FigureRenderer
{
    public const int Width = 1200;
    public const int Height = 440;

    private const int LabelScale = 2;
    private const int TitleScale = 3;
    private const double StrokeWidth = 1.6;

    private static readonly Rgb Ink = Rgb.Parse("#222222");
    private static readonly Rgb Muted = Rgb.Parse("#777777");
    private static readonly Rgb Grid = Rgb.Parse("#e4e4e4");
    private static readonly Rgb Frame = Rgb.Parse("#999999");
    private static readonly Rgb Marker = Rgb.Parse("#b0b0b0");

    /// <summary>Draws <paramref name="figure"/> on <paramref name="canvas"/>, which is <see cref="Width"/> × <see cref="Height"/>.</summary>
    public static void Render(Figure figure, IChartCanvas canvas)
    {
        ArgumentNullException.ThrowIfNull(figure);
        ArgumentNullException.ThrowIfNull(canvas);
        canvas.FillRectangle(0, 0, Width, Height, Rgb.White);
        // A title too long for the large font gets the label font rather than being cut off.
        var titleScale = BitmapFont.MeasureWidth(figure.Title, TitleScale) <= Width - 24 ? TitleScale : LabelScale;
        canvas.Text(Width / 2.0, 22, figure.Title, titleScale, Ink, TextAnchor.Middle);

        var x = ChartAxis.Linear(figure.XMax, 6, roundUp: false);
        var y = YAxis(figure);
        const double left = 34;
        const double right = Width - 12;
        const double top = 48;
        const double bottom = Height - 62;
        var panelWidth = (right - left) / Math.Max(1, figure.Panels.Count);
        for (var p = 0; p < figure.Panels.Count; p++)
        {
            var panelLeft = left + (p * panelWidth);
            var plot = new PlotArea(panelLeft + 70, top + 28, panelLeft + panelWidth - 14, bottom - 24);
            DrawPanel(canvas, figure, figure.Panels[p], plot, x, y);
            canvas.Text((plot.Left + plot.Right) / 2, top + 10, figure.Panels[p].Title, LabelScale, Ink, TextAnchor.Middle);
        }

        var yLabelScale = BitmapFont.MeasureWidth(figure.YLabel, LabelScale) <= bottom - top ? LabelScale : 1;
        canvas.Text(14, (top + bottom) / 2, figure.YLabel, yLabelScale, Ink, TextAnchor.Middle, vertical: true);
        canvas.Text((left + right) / 2, Height - 42, figure.XLabel, LabelScale, Ink, TextAnchor.Middle);
        DrawLegend(canvas, figure.Legend);
    }

    private static ChartAxis YAxis(Figure figure)
    {
        var min = double.PositiveInfinity;
        var max = 0.0;
        foreach (var panel in figure.Panels)
        {
            foreach (var series in panel.Series)
            {
                foreach (var value in series.Ys)
                {
                    if (double.IsFinite(value) && value > 0)
                    {
                        min = Math.Min(min, value);
                        max = Math.Max(max, value);
                    }
                }
            }
        }

        return figure.YScale == AxisScale.Logarithmic ? ChartAxis.Logarithmic(min, max) : ChartAxis.Linear(max);
    }

    private static void DrawPanel(IChartCanvas canvas, Figure figure, FigurePanel panel, PlotArea plot, ChartAxis x, ChartAxis y)
    {
        foreach (var tick in y.Ticks)
        {
            var py = plot.Y(y, tick);
            canvas.Line(plot.Left, py, plot.Right, py, Grid, 1);
            canvas.Text(plot.Left - 6, py, ChartAxis.Format(tick), LabelScale, Muted, TextAnchor.End);
        }

        foreach (var tick in x.Ticks)
        {
            var px = plot.X(x, tick);
            canvas.Line(px, plot.Bottom, px, plot.Bottom + 4, Frame, 1);
            canvas.Text(px, plot.Bottom + 14, ChartAxis.Format(tick), LabelScale, Muted, TextAnchor.Middle);
        }

        foreach (var marker in figure.Markers)
        {
            var px = plot.X(x, marker);
            canvas.Line(px, plot.Top, px, plot.Bottom, Marker, 1, dashed: true);
        }

        var drewAny = false;
        foreach (var series in panel.Series)
        {
            drewAny |= DrawSeries(canvas, series, plot, x, y);
        }

        if (!drewAny)
        {
            canvas.Text((plot.Left + plot.Right) / 2, (plot.Top + plot.Bottom) / 2, panel.EmptyNote, LabelScale, Muted, TextAnchor.Middle);
        }

        // The frame goes last so lines at the axis limits do not cover it.
        canvas.Line(plot.Left, plot.Top, plot.Left, plot.Bottom, Frame, 1);
        canvas.Line(plot.Left, plot.Bottom, plot.Right, plot.Bottom, Frame, 1);
    }

    /// <summary>Draws the runs of consecutive finite points as polylines; returns whether any point was drawn.</summary>
    private static bool DrawSeries(IChartCanvas canvas, ChartSeries series, PlotArea plot, ChartAxis x, ChartAxis y)
    {
        var xs = new double[series.Xs.Length];
        var ys = new double[series.Xs.Length];
        var run = 0;
        var drew = false;
        for (var i = 0; i <= series.Xs.Length; i++)
        {
            var value = i < series.Xs.Length ? series.Ys[i] : double.NaN;
            var gap = !double.IsFinite(value) || (y.Scale == AxisScale.Logarithmic && value <= 0);
            if (!gap)
            {
                xs[run] = plot.X(x, series.Xs[i]);
                ys[run] = plot.Y(y, value);
                run++;
                continue;
            }

            if (run > 0)
            {
                canvas.Polyline(xs.AsSpan(0, run), ys.AsSpan(0, run), series.Color, StrokeWidth);
                drew = true;
                run = 0;
            }
        }

        return drew;
    }

    private static void DrawLegend(IChartCanvas canvas, IReadOnlyList<(string Name, Rgb Color)> legend)
    {
        var widths = 0;
        foreach (var (name, _) in legend)
        {
            widths += 28 + BitmapFont.MeasureWidth(name, LabelScale) + 24;
        }

        var cursor = Math.Max(12, (Width - widths) / 2.0);
        const double y = Height - 16;
        foreach (var (name, color) in legend)
        {
            canvas.Line(cursor, y, cursor + 22, y, color, 4);
            canvas.Text(cursor + 28, y, name, LabelScale, Ink, TextAnchor.Start);
            cursor += 28 + BitmapFont.MeasureWidth(name, LabelScale) + 24;
        }
    }

    /// <summary>A panel's plotting rectangle and the mapping of data to pixels.</summary>
    private readonly record struct PlotArea(double Left, double Top, double Right, double Bottom)
    {
        public double X(ChartAxis axis, double value) => Left + (axis.Fraction(value) * (Right - Left));

        public double Y(ChartAxis axis, double value) => Bottom - (axis.Fraction(value) * (Bottom - Top));
    }
}
