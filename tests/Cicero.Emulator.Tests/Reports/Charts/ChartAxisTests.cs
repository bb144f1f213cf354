// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Charts;
using Cicero.Emulator.Reports.Imaging;

namespace Cicero.Emulator.Tests.Reports.Charts;

public sealed class ChartAxisTests
{
    [Fact]
    public void Linear_RoundsUpToANiceTick()
    {
        var axis = ChartAxis.Linear(537);

        Assert.Equal(600, axis.Max);
        Assert.Equal([0, 200, 400, 600], axis.Ticks);
    }

    [Fact]
    public void Linear_WithoutRoundingUp_EndsAtTheMaximum()
    {
        var axis = ChartAxis.Linear(131, 6, roundUp: false);

        Assert.Equal(131, axis.Max);
        Assert.Equal([0, 50, 100], axis.Ticks);
        Assert.Equal(1, axis.Fraction(131));
    }

    [Fact]
    public void Logarithmic_CoversWholeDecades()
    {
        var axis = ChartAxis.Logarithmic(3.2, 9_700);

        Assert.Equal([1, 10, 100, 1_000, 10_000], axis.Ticks);
        Assert.Equal(0.5, axis.Fraction(100), 9);
        Assert.Equal(0, axis.Fraction(0.001));
    }

    [Theory]
    [InlineData(0, "0")]
    [InlineData(0.25, "0.25")]
    [InlineData(200, "200")]
    [InlineData(1500, "1.5k")]
    [InlineData(2_000_000, "2M")]
    public void Format_Ticks_AreCompact(double value, string text) => Assert.Equal(text, ChartAxis.Format(value));

    [Fact]
    public void SvgCanvas_Text_IsEscaped()
    {
        var svg = new SvgCanvas(10, 10, "a <b>");
        svg.Text(1, 1, "x < y & \"z\"", 2, Rgb.Black, TextAnchor.Start);

        var markup = svg.Complete();

        Assert.Contains("x &lt; y &amp; &quot;z&quot;", markup, StringComparison.Ordinal);
        Assert.Contains("aria-label=\"a &lt;b&gt;\"", markup, StringComparison.Ordinal);
        Assert.EndsWith("</svg>\n", markup, StringComparison.Ordinal);
    }
}
