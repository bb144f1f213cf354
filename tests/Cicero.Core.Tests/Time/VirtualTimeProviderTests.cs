// SPDX-License-Identifier: Apache-2.0

using Cicero.Time;

namespace Cicero.Tests.Time;

public class VirtualTimeProviderTests
{
    [Fact]
    public void Advance_RunsCallbacksInTimeOrder_AndSetsClockToEachDueTime()
    {
        var clock = new VirtualTimeProvider();
        var seen = new List<(string Name, TimeSpan At)>();
        clock.Schedule(TimeSpan.FromMilliseconds(30), _ => seen.Add(("c", clock.Elapsed)), null);
        clock.Schedule(TimeSpan.FromMilliseconds(10), _ => seen.Add(("a", clock.Elapsed)), null);
        clock.Schedule(TimeSpan.FromMilliseconds(20), _ => seen.Add(("b", clock.Elapsed)), null);

        var ran = clock.Advance(TimeSpan.FromMilliseconds(25));

        Assert.Equal(2, ran);
        Assert.Equal([("a", TimeSpan.FromMilliseconds(10)), ("b", TimeSpan.FromMilliseconds(20))], seen);
        Assert.Equal(TimeSpan.FromMilliseconds(25), clock.Elapsed);
        Assert.Equal(1, clock.PendingCount);
    }

    // Callbacks scheduled in due order wait in a FIFO beside the heap: runs must still follow (due, sequence) exactly,
    // with ties in scheduling order, whichever of the two a callback waits in, and callbacks scheduled while running.
    [Fact]
    public void RunUntilIdle_MixedOrderedAndUnorderedSchedules_RunInDueThenSchedulingOrder()
    {
        var clock = new VirtualTimeProvider();
        var random = new Random(5);
        var expected = new List<(long Due, int Order)>();
        var seen = new List<(long Due, int Order)>();
        var order = 0;
        void Add(long due)
        {
            var mine = (Due: Math.Max(due, clock.GetTimestamp()), Order: order++);
            expected.Add(mine);
            clock.ScheduleAt(due, state =>
            {
                seen.Add(((long, int))state!);
                if (seen.Count < 400)
                {
                    // A far-off timeout (in order) and a near event (out of order) from inside a callback.
                    Add(clock.GetTimestamp() + 10_000);
                    Add(clock.GetTimestamp() + random.Next(0, 3));
                }
            }, mine);
        }

        for (var i = 0; i < 50; i++)
        {
            Add(i * 100);
            Add(random.Next(0, 5_000));
            Add(random.Next(0, 5) * 1_000);
        }

        clock.RunUntilIdle();

        Assert.Equal(expected.OrderBy(e => e.Due).ThenBy(e => e.Order), seen);
        Assert.Equal(0, clock.PendingCount);
    }

    [Fact]
    public void RunUntilIdle_EqualTimestamps_RunInSchedulingOrder()
    {
        var clock = new VirtualTimeProvider();
        var order = new List<int>();
        for (var i = 0; i < 100; i++)
        {
            clock.Schedule(TimeSpan.FromSeconds(1), state => order.Add((int)state!), i);
        }

        clock.RunUntilIdle();

        Assert.Equal(Enumerable.Range(0, 100), order);
    }

    [Fact]
    public void Schedule_FromCallback_RunsInSameAdvance_WhenDue()
    {
        var clock = new VirtualTimeProvider();
        var times = new List<TimeSpan>();
        void Tick(object? _)
        {
            times.Add(clock.Elapsed);
            if (times.Count < 5)
            {
                clock.Schedule(TimeSpan.FromMilliseconds(100), Tick, null);
            }
        }

        clock.Schedule(TimeSpan.Zero, Tick, null);
        clock.Advance(TimeSpan.FromSeconds(1));

        Assert.Equal([0, 100, 200, 300, 400], times.Select(t => (int)t.TotalMilliseconds));
    }

    [Fact]
    public void CreateTimer_Periodic_FiresEveryPeriod_UntilDisposed()
    {
        var clock = new VirtualTimeProvider();
        var fired = 0;
        var timer = clock.CreateTimer(_ => fired++, null, TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(100));

        clock.Advance(TimeSpan.FromMilliseconds(1050));
        Assert.Equal(10, fired);

        timer.Dispose();
        clock.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(10, fired);
    }

    [Fact]
    public void CreateTimer_Change_ReplacesPendingDueTime()
    {
        var clock = new VirtualTimeProvider();
        var firedAt = new List<TimeSpan>();
        var timer = clock.CreateTimer(_ => firedAt.Add(clock.Elapsed), null, TimeSpan.FromSeconds(1), Timeout.InfiniteTimeSpan);

        timer.Change(TimeSpan.FromSeconds(3), Timeout.InfiniteTimeSpan);
        clock.Advance(TimeSpan.FromSeconds(5));

        Assert.Equal([TimeSpan.FromSeconds(3)], firedAt);
    }

    [Fact]
    public async Task TaskDelay_WithVirtualClock_CompletesOnlyWhenAdvanced()
    {
        var clock = new VirtualTimeProvider();
        var delay = Task.Delay(TimeSpan.FromSeconds(10), clock);

        clock.Advance(TimeSpan.FromSeconds(9));
        Assert.False(delay.IsCompleted);

        clock.Advance(TimeSpan.FromSeconds(1));
        await delay.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(delay.IsCompletedSuccessfully);
    }

    [Fact]
    public void RunUntilIdle_PeriodicTimer_StopsAtBoundWithClearError()
    {
        var clock = new VirtualTimeProvider();
        using var timer = clock.CreateTimer(_ => { }, null, TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(1));

        var error = Assert.Throws<InvalidOperationException>(() => clock.RunUntilIdle(maxCallbacks: 1000));

        Assert.Contains("periodic timer", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void GetUtcNow_FollowsEpochPlusElapsed()
    {
        var epoch = new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
        var clock = new VirtualTimeProvider(epoch);

        clock.Advance(TimeSpan.FromMinutes(5));

        Assert.Equal(epoch.AddMinutes(5), clock.GetUtcNow());
        Assert.Equal(TimeSpan.FromMinutes(5), clock.GetElapsedTime(0));
    }

    [Fact]
    public void Schedule_NegativeDelay_Throws()
    {
        var clock = new VirtualTimeProvider();

        Assert.Throws<ArgumentOutOfRangeException>(() => clock.Schedule(TimeSpan.FromTicks(-1), _ => { }, null));
    }
}
