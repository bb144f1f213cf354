// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Measurement;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Measurement;

public sealed class LatencyHistogramTests
{
    private static readonly double[] Quantiles = [0, 0.001, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999, 1];

    public static TheoryData<string, int> Samples => new()
    {
        { "log-uniform 1 µs .. 1 h", 7 },
        { "exponential, mean 5 ms", 7 },
        { "bimodal 2 ms and 3 s", 7 },
        { "log-uniform 1 µs .. 1 h", 10 },
        { "exponential, mean 5 ms", 4 },
    };

    [Theory]
    [MemberData(nameof(Samples))]
    public void ValueAtQuantile_SeededSamples_WithinRelativeErrorOfExactNearestRank(string sample, int precisionBits)
    {
        var values = Generate(sample, 100_003, seed: 42);
        var histogram = new LatencyHistogram(precisionBits);
        foreach (var value in values)
        {
            histogram.Record(value);
        }

        var sorted = values.ToArray();
        Array.Sort(sorted);
        Assert.Equal(Math.Pow(2, -precisionBits), histogram.RelativeError);
        foreach (var q in Quantiles)
        {
            var exact = sorted[LatencyHistogram.NearestRank(q, sorted.Length) - 1];
            var estimate = histogram.ValueAtQuantile(q);
            Assert.True(
                Math.Abs(estimate - exact) <= histogram.RelativeError * exact,
                $"{sample}, q = {q}: estimate {estimate}, exact {exact}, bound {histogram.RelativeError:P3}");
        }
    }

    [Fact]
    public void CountMeanMinMax_SeededSample_AreExact()
    {
        var values = Generate("log-uniform 1 µs .. 1 h", 10_000, seed: 7);
        var histogram = new LatencyHistogram();
        foreach (var value in values)
        {
            histogram.Record(value);
        }

        Assert.Equal(values.Length, histogram.Count);
        Assert.Equal(values.Min(), histogram.Min);
        Assert.Equal(values.Max(), histogram.Max);
        Assert.Equal(values.Select(v => (decimal)v).Average(), (decimal)histogram.Mean, 3);
    }

    [Fact]
    public void Record_ValuesBelowTheLinearRange_AreExact()
    {
        var histogram = new LatencyHistogram(precisionBits: 7);
        for (var value = 0; value < 128; value++)
        {
            histogram.Record(value);
        }

        Assert.Equal(63, histogram.ValueAtQuantile(0.5));
        Assert.Equal(126, histogram.ValueAtQuantile(0.99));
        Assert.Equal(127, histogram.ValueAtQuantile(1));
    }

    [Fact]
    public void Add_TwoHalves_EqualsOneHistogramOfEverything()
    {
        var values = Generate("bimodal 2 ms and 3 s", 20_000, seed: 3);
        var whole = new LatencyHistogram();
        var first = new LatencyHistogram();
        var second = new LatencyHistogram();
        for (var i = 0; i < values.Length; i++)
        {
            whole.Record(values[i]);
            (i % 2 == 0 ? first : second).Record(values[i]);
        }

        first.Add(second);

        Assert.Equal(whole.Count, first.Count);
        Assert.Equal(whole.Mean, first.Mean);
        Assert.Equal(whole.Min, first.Min);
        Assert.Equal(whole.Max, first.Max);
        foreach (var q in Quantiles)
        {
            Assert.Equal(whole.ValueAtQuantile(q), first.ValueAtQuantile(q));
        }
    }

    [Fact]
    public void Record_WithCount_EqualsRepeatedRecords()
    {
        var repeated = new LatencyHistogram();
        var counted = new LatencyHistogram();
        for (var i = 0; i < 5; i++)
        {
            repeated.Record(12_345);
        }

        counted.Record(12_345, 5);
        counted.Record(99, 0);

        Assert.Equal(repeated.Count, counted.Count);
        Assert.Equal(repeated.Mean, counted.Mean);
        Assert.Equal(repeated.ValueAtQuantile(0.5), counted.ValueAtQuantile(0.5));
    }

    [Fact]
    public void Buckets_EveryValue_FallsInItsBucketWhoseWidthIsBounded()
    {
        var histogram = new LatencyHistogram(precisionBits: 7);
        var random = new Random(11);
        var values = new List<long> { 0, 1, 127, 128, 129, 255, 256, long.MaxValue, long.MaxValue - 1, 1L << 62 };
        for (var i = 0; i < 10_000; i++)
        {
            values.Add(random.NextInt64(long.MaxValue) >> random.Next(63));
        }

        foreach (var value in values)
        {
            var (low, high) = histogram.BoundsOf(histogram.IndexOf(value));
            Assert.InRange(value, low, high);
            Assert.True(high - low <= Math.Max(0, low / 64.0), $"bucket [{low}, {high}] of {value} is too wide");
        }
    }

    [Fact]
    public void ValueAtQuantile_Empty_IsNaN()
    {
        var histogram = new LatencyHistogram();

        Assert.True(double.IsNaN(histogram.ValueAtQuantile(0.99)));
        Assert.True(double.IsNaN(histogram.Mean));
        Assert.Equal(0, histogram.Count);
    }

    [Fact]
    public void Reset_AfterRecords_IsEmpty()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(1_000);
        histogram.Reset();

        Assert.Equal(0, histogram.Count);
        Assert.Equal(0, histogram.Max);
        Assert.True(double.IsNaN(histogram.ValueAtQuantile(0.5)));
    }

    [Fact]
    public void InvalidArguments_Throw()
    {
        var histogram = new LatencyHistogram();

        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.Record(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.Record(1, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.ValueAtQuantile(1.5));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LatencyHistogram(1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LatencyHistogram(17));
        Assert.Throws<ArgumentException>(() => histogram.Add(new LatencyHistogram(8)));
    }

    [Theory]
    [InlineData(0.07, 100, 7)]
    [InlineData(0.57, 100, 57)]
    [InlineData(0.5, 3, 2)]
    [InlineData(0.999, 1000, 999)]
    [InlineData(0.9991, 1000, 1000)]
    [InlineData(0.0001, 10, 1)]
    public void NearestRank_BinaryRounding_DoesNotSkipARank(double quantile, long count, long rank) =>
        Assert.Equal(rank, LatencyHistogram.NearestRank(quantile, count));

    [Fact]
    public void DistributionSummaryOf_Histogram_ScalesEveryStatistic()
    {
        var histogram = new LatencyHistogram();
        for (var micros = 1_000; micros <= 100_000; micros += 1_000)
        {
            histogram.Record(micros);
        }

        var summary = DistributionSummary.Of(histogram, scale: 0.001);

        Assert.Equal(100, summary.Count);
        Assert.Equal(50.5, summary.Mean, 9);
        Assert.Equal(100, summary.Max, 9);
        Assert.InRange(summary.P50, 50 * (1 - histogram.RelativeError), 50 * (1 + histogram.RelativeError));
        Assert.InRange(summary.P99, 99 * (1 - histogram.RelativeError), 99 * (1 + histogram.RelativeError));
        Assert.True(double.IsNaN(DistributionSummary.Of(new LatencyHistogram()).Max));
    }

    private static long[] Generate(string sample, int count, int seed)
    {
        var random = new Random(seed);
        var values = new long[count];
        for (var i = 0; i < count; i++)
        {
            values[i] = sample switch
            {
                "log-uniform 1 µs .. 1 h" => (long)Math.Exp(random.NextDouble() * Math.Log(3.6e9)),
                "exponential, mean 5 ms" => (long)(-5_000 * Math.Log(1 - random.NextDouble())),
                "bimodal 2 ms and 3 s" => random.NextDouble() < 0.98 ? 2_000 + random.Next(500) : 3_000_000 + random.Next(1_000_000),
                _ => throw new ArgumentOutOfRangeException(nameof(sample)),
            };
        }

        return values;
    }
}
