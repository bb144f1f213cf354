// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>An axis' range and tick marks in data units, and the mapping to pixels.</summary>
internal sealed class ChartAxis
{
    private ChartAxis(double min, double max, AxisScale scale, double[] ticks)
    {
        Min = min;
        Max = max;
        Scale = scale;
        Ticks = ticks;
    }

    public double Min { get; }

    public double Max { get; }

    public AxisScale Scale { get; }

    public double[] Ticks { get; }

    /// <summary>
    /// A linear axis from 0 with about <paramref name="targetTicks"/> round ticks, ending at the next tick at or above
    /// <paramref name="max"/> or, when not <paramref name="roundUp"/>, at <paramref name="max"/> itself (a time axis
    /// ends when the run did).
    /// </summary>
    public static ChartAxis Linear(double max, int targetTicks = 5, bool roundUp = true)
    {
        if (!(max > 0) || !double.IsFinite(max))
        {
            max = 1;
        }

        var step = NiceStep(max / targetTicks);
        var top = roundUp ? Math.Ceiling((max / step) - 1e-9) * step : max;
        var count = (int)Math.Floor((top / step) + 1e-9);
        var ticks = new double[count + 1];
        for (var i = 0; i <= count; i++)
        {
            ticks[i] = i * step;
        }

        return new ChartAxis(0, top, AxisScale.Linear, ticks);
    }

    /// <summary>A logarithmic axis over whole decades covering [<paramref name="min"/>, <paramref name="max"/>] (positive values).</summary>
    public static ChartAxis Logarithmic(double min, double max)
    {
        if (!(min > 0) || !double.IsFinite(min) || !(max > 0) || !double.IsFinite(max))
        {
            (min, max) = (1, 10);
        }

        var low = (int)Math.Floor(Math.Log10(min) + 1e-9);
        var high = Math.Max(low + 1, (int)Math.Ceiling(Math.Log10(max) - 1e-9));
        var ticks = new double[high - low + 1];
        for (var i = 0; i < ticks.Length; i++)
        {
            ticks[i] = Math.Pow(10, low + i);
        }

        return new ChartAxis(ticks[0], ticks[^1], AxisScale.Logarithmic, ticks);
    }

    /// <summary>Gets where <paramref name="value"/> falls in [0, 1] along the axis, clamped.</summary>
    public double Fraction(double value)
    {
        var fraction = Scale == AxisScale.Logarithmic
            ? (Math.Log10(Math.Max(value, Min)) - Math.Log10(Min)) / (Math.Log10(Max) - Math.Log10(Min))
            : (value - Min) / (Max - Min);
        return Math.Clamp(fraction, 0, 1);
    }

    /// <summary>Formats a tick compactly: 0.5, 20, 1.5k, 10k, 2M.</summary>
    public static string Format(double value)
    {
        var magnitude = Math.Abs(value);
        return magnitude switch
        {
            >= 1e6 => Compact(value / 1e6) + "M",
            >= 1e3 => Compact(value / 1e3) + "k",
            _ => Compact(value),
        };
    }

    private static string Compact(double value) => Math.Round(value, 3).ToString("0.###", CultureInfo.InvariantCulture);

    /// <summary>1, 2 or 5 times a power of ten, the smallest at or above <paramref name="rough"/>.</summary>
    private static double NiceStep(double rough)
    {
        var power = Math.Pow(10, Math.Floor(Math.Log10(rough)));
        var mantissa = rough / power;
        var nice = mantissa <= 1 + 1e-9 ? 1 : mantissa <= 2 + 1e-9 ? 2 : mantissa <= 5 + 1e-9 ? 5 : 10;
        return nice * power;
    }
}
