// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Time;

/// <summary>A timer of a <see cref="VirtualTimeProvider"/>; stale queue entries are skipped by version.</summary>
internal sealed class VirtualTimer : ITimer
{
    private readonly VirtualTimeProvider _owner;
    private readonly TimerCallback _callback;
    private readonly object? _state;
    private int _version;
    private long _periodTicks;
    private bool _disposed;

    public VirtualTimer(VirtualTimeProvider owner, TimerCallback callback, object? state)
    {
        _owner = owner;
        _callback = callback;
        _state = state;
    }

    public bool Change(TimeSpan dueTime, TimeSpan period)
    {
        ValidatePeriod(dueTime, nameof(dueTime));
        ValidatePeriod(period, nameof(period));
        lock (_owner.SyncRoot)
        {
            if (_disposed)
            {
                return false;
            }

            _version++;
            _periodTicks = period == Timeout.InfiniteTimeSpan || period == TimeSpan.Zero ? 0 : period.Ticks;
            if (dueTime != Timeout.InfiniteTimeSpan)
            {
                _owner.ScheduleTimer(this, dueTime.Ticks, _version);
            }
        }

        return true;
    }

    public void Dispose()
    {
        lock (_owner.SyncRoot)
        {
            _disposed = true;
            _version++;
        }
    }

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    internal bool IsCurrent(int version) => !_disposed && version == _version;

    internal void Fire(int version)
    {
        _callback(_state);
        lock (_owner.SyncRoot)
        {
            // The callback may have changed or disposed the timer; only an untouched periodic timer re-arms itself.
            if (IsCurrent(version) && _periodTicks > 0)
            {
                _owner.ScheduleTimer(this, _periodTicks, version);
            }
        }
    }

    private static void ValidatePeriod(TimeSpan value, string name)
    {
        if (value < TimeSpan.Zero && value != Timeout.InfiniteTimeSpan)
        {
            throw new ArgumentOutOfRangeException(name, value, "Must be non-negative or Timeout.InfiniteTimeSpan.");
        }
    }
}
