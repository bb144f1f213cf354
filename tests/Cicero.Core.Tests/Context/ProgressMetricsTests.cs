// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Time;

namespace Cicero.Tests.Context;

/// <summary>Section 5.2.4's progress-metric rules over a DAG: a sequential chain, then a parallel fan-out of 4.</summary>
public class ProgressMetricsTests
{
    private const int Precision = 12;

    [Fact]
    public void Dag_SequentialChainThenFanOutOfFour_MatchesHandComputedElapsedAndRemaining()
    {
        var clock = new VirtualTimeProvider();
        // The entry point's estimates: T_st = 50 ms, T_θ = 0.5.
        var entry = RequestContext.Start("tenant", clock, TimeSpan.FromSeconds(1)).WithEstimatedTotal(new ProgressDelta(0.050, 0.5));

        // E: 2 ms of local work, θ 0.01.
        entry.Progress.AddLocalWork(0.002, 0.01);

        // Sequential call to A: A starts at (a + b, 0) and does 5 ms, θ 0.05.
        var a = entry.ForDownstreamCall();
        Assert.Equal(new ProgressDelta(0.002, 0.01), a.BeforeArrival);
        Assert.Equal(ProgressDelta.Zero, a.Progress.Current);
        a.Progress.AddLocalWork(0.005, 0.05);
        entry.Progress.AddSequential(a.Progress.Current);
        Assert.Equal(0.007, entry.ElapsedServiceTime, Precision);
        Assert.Equal(0.06, entry.ElapsedLoad, Precision);

        // Fan-out of 4 in parallel; P4 itself does 10 ms then calls Q (6 ms, θ 0.03) in sequence.
        var children = new RequestContext[4];
        for (var i = 0; i < 4; i++)
        {
            children[i] = entry.ForDownstreamCall();
        }

        children[0].Progress.AddLocalWork(0.004, 0.02);
        children[1].Progress.AddLocalWork(0.008, 0.04);
        children[2].Progress.AddLocalWork(0.012, 0.06);
        children[3].Progress.AddLocalWork(0.010, 0.05);
        var q = children[3].ForDownstreamCall();
        Assert.Equal(new ProgressDelta(0.017, 0.11), Round(q.BeforeArrival));
        q.Progress.AddLocalWork(0.006, 0.03);
        // At Q: elapsed st = 17 + 6 = 23 ms, remaining = 50 − 23 = 27 ms.
        Assert.Equal(0.023, q.ElapsedServiceTime, Precision);
        Assert.Equal(0.027, q.RemainingServiceTime, Precision);
        children[3].Progress.AddSequential(q.Progress.Current);
        Assert.Equal(new ProgressDelta(0.016, 0.08), Round(children[3].Progress.Current));

        // Join: st adds (4 + 8 + 12 + 16) / 4 = 10 ms; θ adds 0.02 + 0.04 + 0.06 + 0.08 = 0.2.
        Span<ProgressDelta> joined = [children[0].Progress.Current, children[1].Progress.Current, children[2].Progress.Current, children[3].Progress.Current];
        entry.Progress.AddParallel(joined);
        Assert.Equal(0.017, entry.ElapsedServiceTime, Precision);
        Assert.Equal(0.26, entry.ElapsedLoad, Precision);

        // E finishes with 3 ms of local work, θ 0.015.
        entry.Progress.AddLocalWork(0.003, 0.015);

        Assert.Equal(0.020, entry.ElapsedServiceTime, Precision);
        Assert.Equal(0.030, entry.RemainingServiceTime, Precision);
        Assert.Equal(0.275, entry.ElapsedLoad, Precision);
        Assert.Equal(0.225, entry.RemainingLoad, Precision);
    }

    [Fact]
    public void WithDeadline_SharesProgressOfTheHop_ButForDownstreamCallDoesNot()
    {
        var context = RequestContext.Start("w", TimeProvider.System);
        var copy = context.WithDeadline(TimeSpan.FromSeconds(2));
        var child = context.ForDownstreamCall();

        copy.Progress.AddLocalWork(0.5, 1);

        Assert.Equal(0.5, context.ElapsedServiceTime);
        Assert.Null(context.Deadline);
        Assert.Equal(TimeSpan.FromSeconds(2), copy.Deadline);
        Assert.Equal(0, child.ElapsedServiceTime);
    }

    [Fact]
    public void RemainingServiceTime_WithoutEstimate_IsZero_AndNeverNegative()
    {
        var context = RequestContext.Start("w", TimeProvider.System);
        context.Progress.AddLocalWork(1, 1);

        Assert.Equal(0, context.RemainingServiceTime);
        Assert.Equal(0, context.WithEstimatedTotal(new ProgressDelta(0.5, 0.5)).RemainingServiceTime);
    }

    [Fact]
    public void JoinParallel_Empty_IsZero()
    {
        Assert.Equal(ProgressDelta.Zero, ProgressDelta.JoinParallel([]));
    }

    [Theory]
    [InlineData(-1.0, 0.0)]
    [InlineData(double.NaN, 0.0)]
    [InlineData(0.0, double.PositiveInfinity)]
    public void AddLocalWork_InvalidValues_Throw(double serviceTime, double load)
    {
        var context = RequestContext.Start("w", TimeProvider.System);

        Assert.Throws<ArgumentException>(() => context.Progress.AddLocalWork(serviceTime, load));
        Assert.Equal(ProgressDelta.Zero, context.Progress.Current);
    }

    [Fact]
    public async Task Progress_ConcurrentAdds_AreNotLost()
    {
        var context = RequestContext.Start("w", TimeProvider.System);

        await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Run(() =>
        {
            for (var i = 0; i < 10_000; i++)
            {
                context.Progress.AddLocalWork(1, 2);
            }
        })));

        Assert.Equal(new ProgressDelta(40_000, 80_000), context.Progress.Current);
    }

    private static ProgressDelta Round(ProgressDelta delta) => new(Math.Round(delta.ServiceTime, 12), Math.Round(delta.Load, 12));
}
