// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Time;

/// <summary>
/// A <see cref="TimeProvider"/> whose clock moves only when told to, with an ordered queue of scheduled callbacks.
/// It is the discrete-event kernel of Cicero's simulator and the clock of deterministic tests.
/// </summary>
/// <remarks>
/// <para>
/// Timestamps are in <see cref="TimeSpan"/> ticks (<see cref="TimestampFrequency"/> is 10,000,000 per second) counted
/// from the epoch given at construction. Callbacks that fall due at the same timestamp run in the order they were
/// scheduled, so a run is repeatable bit for bit.
/// </para>
/// <para>
/// Scheduling (<see cref="Schedule(TimeSpan, Action{object?}, object?)"/>, <see cref="CreateTimer"/>) is thread-safe.
/// Advancing the clock (<see cref="Advance"/>, <see cref="RunUntil(long)"/>, <see cref="RunUntilIdle"/>) must be done
/// by one thread at a time; callbacks run on that thread, outside the provider's lock, and may schedule more work.
/// </para>
/// </remarks>
public sealed class VirtualTimeProvider : TimeProvider
{
    private readonly Lock _lock = new();
    // No comparer: for a struct key the queue then uses the devirtualized default comparison.
    private readonly PriorityQueue<ScheduledCallback, EventKey> _queue = new();
    // Callbacks scheduled in due order (a constant delay, such as a simulated RPC timeout, seconds ahead) wait in a plain
    // FIFO instead of the heap: they are most of what is pending in a simulation, and the heap then stays small. The
    // order of runs is the same, since both hold (due, sequence) keys and the earlier head runs first.
    private readonly Queue<(ScheduledCallback Callback, EventKey Key)> _ordered = new();
    private long _orderedTailDue;
    private readonly DateTimeOffset _epoch;
    private long _now;
    private long _sequence;
    private long _callbacksRun;

    /// <summary>Creates a virtual clock that starts at 2000-01-01T00:00:00Z.</summary>
    public VirtualTimeProvider()
        : this(new DateTimeOffset(2000, 1, 1, 0, 0, 0, TimeSpan.Zero))
    {
    }

    /// <summary>Creates a virtual clock that starts at <paramref name="epoch"/>.</summary>
    /// <param name="epoch">The wall-clock time that timestamp 0 stands for.</param>
    public VirtualTimeProvider(DateTimeOffset epoch)
    {
        _epoch = epoch;
    }

    /// <inheritdoc />
    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    /// <inheritdoc />
    public override TimeZoneInfo LocalTimeZone => TimeZoneInfo.Utc;

    /// <summary>Gets the time elapsed since the epoch.</summary>
    public TimeSpan Elapsed => TimeSpan.FromTicks(Volatile.Read(ref _now));

    /// <summary>Gets the number of callbacks waiting to run, including timers that are due later.</summary>
    public int PendingCount
    {
        get
        {
            lock (_lock)
            {
                return _queue.Count + _ordered.Count;
            }
        }
    }

    /// <summary>Gets the total number of callbacks run so far.</summary>
    public long CallbacksRun => Volatile.Read(ref _callbacksRun);

    /// <inheritdoc />
    public override long GetTimestamp() => Volatile.Read(ref _now);

    /// <inheritdoc />
    public override DateTimeOffset GetUtcNow() => _epoch.AddTicks(Volatile.Read(ref _now));

    /// <summary>Schedules <paramref name="callback"/> to run once, <paramref name="delay"/> from now.</summary>
    /// <param name="delay">How long from now; zero runs it at the current time, after work already due now.</param>
    /// <param name="callback">The callback; a static lambda with <paramref name="state"/> avoids an allocation.</param>
    /// <param name="state">The argument passed to <paramref name="callback"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="delay"/> is negative.</exception>
    public void Schedule(TimeSpan delay, Action<object?> callback, object? state)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(delay, TimeSpan.Zero);
        ArgumentNullException.ThrowIfNull(callback);
        lock (_lock)
        {
            Enqueue(_now + delay.Ticks, new ScheduledCallback(callback, state, null, 0));
        }
    }

    /// <summary>Schedules <paramref name="callback"/> to run once at <paramref name="timestamp"/>.</summary>
    /// <param name="timestamp">When to run, as a timestamp of this provider; a time in the past means now.</param>
    /// <param name="callback">The callback.</param>
    /// <param name="state">The argument passed to <paramref name="callback"/>.</param>
    public void ScheduleAt(long timestamp, Action<object?> callback, object? state)
    {
        ArgumentNullException.ThrowIfNull(callback);
        lock (_lock)
        {
            Enqueue(Math.Max(timestamp, _now), new ScheduledCallback(callback, state, null, 0));
        }
    }

    /// <inheritdoc />
    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(callback);
        var timer = new VirtualTimer(this, callback, state);
        timer.Change(dueTime, period);
        return timer;
    }

    /// <summary>Moves the clock forward by <paramref name="delta"/>, running every callback that falls due on the way.</summary>
    /// <param name="delta">How far to move; must not be negative.</param>
    /// <returns>The number of callbacks run.</returns>
    public int Advance(TimeSpan delta)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(delta, TimeSpan.Zero);
        return RunUntil(GetTimestamp() + delta.Ticks);
    }

    /// <summary>Runs every callback due at or before <paramref name="timestamp"/>, then sets the clock to it.</summary>
    /// <param name="timestamp">The target timestamp; a time in the past leaves the clock where it is.</param>
    /// <returns>The number of callbacks run.</returns>
    public int RunUntil(long timestamp)
    {
        var count = 0;
        while (TryRunNext(timestamp))
        {
            count++;
        }

        lock (_lock)
        {
            if (timestamp > _now)
            {
                Volatile.Write(ref _now, timestamp);
            }
        }

        return count;
    }

    /// <summary>Runs every callback due at or before <paramref name="time"/>, then sets the clock to it.</summary>
    /// <param name="time">The target wall-clock time.</param>
    /// <returns>The number of callbacks run.</returns>
    public int RunUntil(DateTimeOffset time) => RunUntil((time - _epoch).Ticks);

    /// <summary>Runs callbacks in time order until none is left, moving the clock to each one's due time.</summary>
    /// <param name="maxCallbacks">A bound that stops a run that never ends, such as one with a periodic timer.</param>
    /// <returns>The number of callbacks run.</returns>
    /// <exception cref="InvalidOperationException">More than <paramref name="maxCallbacks"/> callbacks would run.</exception>
    public int RunUntilIdle(int maxCallbacks = 10_000_000)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxCallbacks);
        var count = 0;
        while (TryRunNext(long.MaxValue))
        {
            if (++count >= maxCallbacks && PendingCount > 0)
            {
                throw new InvalidOperationException(
                    $"The virtual clock ran {count} callbacks and still has work queued; a periodic timer keeps it busy. Use RunUntil or Advance instead.");
            }
        }

        return count;
    }

    /// <summary>Runs the next callback if it is due at or before <paramref name="limit"/>.</summary>
    /// <param name="limit">The latest timestamp to run a callback at.</param>
    /// <returns><see langword="true"/> if a callback ran.</returns>
    public bool TryRunNext(long limit = long.MaxValue)
    {
        ScheduledCallback next;
        lock (_lock)
        {
            while (true)
            {
                var fromHeap = _queue.TryPeek(out next, out var key);
                if (_ordered.TryPeek(out var ordered) && (!fromHeap || ordered.Key.CompareTo(key) < 0))
                {
                    (next, key) = ordered;
                    fromHeap = false;
                }
                else if (!fromHeap)
                {
                    return false;
                }

                if (key.Due > limit)
                {
                    return false;
                }

                if (fromHeap)
                {
                    _queue.Dequeue();
                }
                else
                {
                    _ordered.Dequeue();
                }

                if (next.Timer is null || next.Timer.IsCurrent(next.TimerVersion))
                {
                    if (key.Due > _now)
                    {
                        Volatile.Write(ref _now, key.Due);
                    }

                    break;
                }
            }
        }

        _callbacksRun++;
        if (next.Timer is { } timer)
        {
            timer.Fire(next.TimerVersion);
        }
        else
        {
            next.Callback!(next.State);
        }

        return true;
    }

    internal void ScheduleTimer(VirtualTimer timer, long dueTicks, int version)
    {
        lock (_lock)
        {
            Enqueue(_now + dueTicks, new ScheduledCallback(null, null, timer, version));
        }
    }

    internal Lock SyncRoot => _lock;

    private void Enqueue(long due, ScheduledCallback callback)
    {
        var key = new EventKey(due, _sequence++);
        if (_ordered.Count == 0 || due >= _orderedTailDue)
        {
            // Its sequence is the largest yet, so it sorts after everything in the FIFO.
            _ordered.Enqueue((callback, key));
            _orderedTailDue = due;
        }
        else
        {
            _queue.Enqueue(callback, key);
        }
    }

    private readonly record struct ScheduledCallback(Action<object?>? Callback, object? State, VirtualTimer? Timer, int TimerVersion);

    private readonly record struct EventKey(long Due, long Sequence) : IComparable<EventKey>
    {
        public int CompareTo(EventKey other)
        {
            var byDue = Due.CompareTo(other.Due);
            return byDue != 0 ? byDue : Sequence.CompareTo(other.Sequence);
        }
    }
}
