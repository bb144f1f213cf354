// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Measurement;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Measurement;

public sealed class LatencyRecorderTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Summarize_SeededLognormalSample_WithinATenthOfAPercentOfTheExactSummary(int seed)
    {
        var random = new Random(seed);
        var values = new double[20_000];
        var recorder = new LatencyRecorder();
        for (var i = 0; i < values.Length; i++)
        {
            // Milliseconds over five decades: 0.05 ms to several seconds.
            values[i] = Math.Exp((random.NextDouble() * 11) - 3);
            recorder.Record(values[i]);
        }

        Array.Sort(values);
        var exact = DistributionSummary.Of(values);
        var summary = recorder.Summarize();

        Assert.Equal(exact.Count, summary.Count);
        Assert.Equal(exact.Mean, summary.Mean, 9);
        Assert.Equal(exact.Max, summary.Max);
        foreach (var (approximate, precise) in new[] { (summary.P50, exact.P50), (summary.P95, exact.P95), (summary.P99, exact.P99), (summary.P999, exact.P999) })
        {
            // Three significant digits, plus the gap between neighbouring ranks that interpolation bridges.
            Assert.InRange(approximate, precise * 0.995, precise * 1.005);
        }
    }

    [Fact]
    public void Merge_TwoHalves_EqualsOneRecorderOfEverything()
    {
        var random = new Random(4);
        var whole = new LatencyRecorder();
        var first = new LatencyRecorder();
        var second = new LatencyRecorder();
        for (var i = 0; i < 5_000; i++)
        {
            var value = random.NextDouble() * 1_000;
            whole.Record(value);
            (i % 2 == 0 ? first : second).Record(value);
        }

        first.Merge(second);

        Assert.Equal(whole.Summarize().Count, first.Summarize().Count);
        Assert.Equal(whole.Summarize().Max, first.Summarize().Max);
        Assert.Equal(whole.Summarize().Mean, first.Summarize().Mean, 9);
        Assert.Equal(whole.Summarize().P99, first.Summarize().P99);
        Assert.Throws<ArgumentException>(() => first.Merge(new LatencyRecorder(resolution: 0.01)));
    }

    [Fact]
    public void Record_PastTheRange_IsClampedAndCountedWithTheExactMaximum()
    {
        var recorder = new LatencyRecorder(resolution: 1, highest: 1_000);

        recorder.Record(10);
        recorder.Record(5_000);

        Assert.Equal(1, recorder.Clamped);
        Assert.Equal(5_000, recorder.Summarize().Max);
        Assert.InRange(recorder.ValueAtQuantile(1), 999, 1_001);
    }

    [Fact]
    public void Memory_DoesNotGrowWithTheNumberOfValues()
    {
        var recorder = new LatencyRecorder();
        recorder.Record(1);
        var before = GC.GetAllocatedBytesForCurrentThread();
        var random = new Random(9);
        for (var i = 0; i < 200_000; i++)
        {
            recorder.Record(random.NextDouble() * 60_000);
        }

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(200_001, recorder.Count);
        Assert.True(allocated < 64 * 1024, $"recording 200,000 values allocated {allocated} bytes");
    }

    [Fact]
    public void Summarize_Empty_IsNaN()
    {
        var summary = new LatencyRecorder().Summarize();

        Assert.Equal(0, summary.Count);
        Assert.True(double.IsNaN(summary.P99) && double.IsNaN(summary.Mean));
    }
}
