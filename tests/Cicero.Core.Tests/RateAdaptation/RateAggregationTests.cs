// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Tests.RateAdaptation;

public class RateAggregationTests
{
    [Theory]
    [InlineData(0.0, 10.0)]
    [InlineData(1.0, 40.0)]
    [InlineData(0.5, 25.0)]          // even count: halfway between 20 and 30
    [InlineData(0.25, 17.5)]         // position 0.75 between 10 and 20
    [InlineData(0.9, 37.0)]          // position 2.7 between 30 and 40
    public void Quantile_FourValues_InterpolatesBetweenRanks(double q, double expected)
    {
        Span<double> values = [40, 10, 30, 20];

        Assert.Equal(expected, RateAggregation.Quantile(values, q), 9);
    }

    [Theory]
    [InlineData(0.0, 5.0)]
    [InlineData(0.5, 7.0)]
    [InlineData(1.0, 9.0)]
    public void Quantile_OddCount_MedianIsMiddleValue(double q, double expected)
    {
        Span<double> values = [9, 5, 7];

        Assert.Equal(expected, RateAggregation.Quantile(values, q));
    }

    [Fact]
    public void Quantile_SingleValue_IsThatValueForEveryQ()
    {
        Assert.Equal(3.0, RateAggregation.Quantile([3.0], 0));
        Assert.Equal(3.0, RateAggregation.Quantile([3.0], 0.37));
        Assert.Equal(3.0, RateAggregation.Quantile([3.0], 1));
    }

    [Fact]
    public void Quantile_WithInfinity_StaysFiniteBelowIt()
    {
        Assert.Equal(10.0, RateAggregation.Quantile([10.0, double.PositiveInfinity], 0));
        Assert.True(double.IsPositiveInfinity(RateAggregation.Quantile([10.0, double.PositiveInfinity], 0.5)));
    }

    [Fact]
    public void Quantile_InvalidArguments_Throw()
    {
        Assert.Throws<ArgumentException>(() => RateAggregation.Quantile([], 0.5));
        Assert.Throws<ArgumentOutOfRangeException>(() => RateAggregation.Quantile([1.0], 1.5));
        Assert.Throws<ArgumentOutOfRangeException>(() => RateAggregation.Quantile([1.0], double.NaN));
    }

    [Fact]
    public void ImpliedRequestRate_EvenSpreadOverMInstances_GivesMTimesCOverAlpha()
    {
        const double C = 120;
        const double Alpha = 3;
        const int M = 4;

        // Each of M identical instances answers C calls/s; the caller sends 1/M of its α calls per request to each.
        var implied = RateAggregation.ImpliedRequestRate(C, Alpha, 1.0 / M);

        Assert.Equal(M * C / Alpha, implied, 9);
    }

    [Fact]
    public void ImpliedRequestRate_AllCallsToOneInstance_GivesCOverAlpha()
    {
        Assert.Equal(40, RateAggregation.ImpliedRequestRate(120, 3, 1), 9);
        Assert.True(double.IsPositiveInfinity(RateAggregation.ImpliedRequestRate(double.PositiveInfinity, 3, 0.5)));
        Assert.Throws<ArgumentOutOfRangeException>(() => RateAggregation.ImpliedRequestRate(1, 0, 0.5));
        Assert.Throws<ArgumentOutOfRangeException>(() => RateAggregation.ImpliedRequestRate(1, 1, 0));
    }

    [Theory]
    [InlineData(100, 150, 200, 2, 75)]      // saturated: proportional share
    [InlineData(100, 50, 200, 2, 25)]
    [InlineData(100, 30, 40, 2, 60)]        // spare 60 split between the two callers: 30 + 30
    [InlineData(100, 10, 40, 2, 40)]        // 10 + 30
    [InlineData(100, 0, 0, 1, 100)]         // no demand measured yet: the whole rate
    [InlineData(100, 0, 400, 4, 12.5)]      // a caller with no demand left still gets σ / 2k, never 0
    [InlineData(100, 1, 400, 4, 12.5)]
    public void ShareForCaller_ProportionalToDemand_WithHeadroomAndFloor(double rate, double caller, double total, int callers, double expected)
    {
        Assert.Equal(expected, RateAggregation.ShareForCaller(rate, caller, total, callers), 9);
    }
}
