// SPDX-License-Identifier: Apache-2.0

using Cicero.Internal;

namespace Cicero.ReplicaSelection;

/// <summary>
/// The backlogs of a <see cref="ReplicaClientEngine{TRequest}"/>: one FIFO per group for the requests the selector
/// holds back, each with its armed retry, and their release on responses and retry timers through the host.
/// </summary>
/// <typeparam name="TRequest">The host's request.</typeparam>
internal sealed class ReplicaBacklogs<TRequest>(
    IReplicaSelector selector, IReplicaClientHost<TRequest> host, ReplicaClientEngineOptions options, ReplicaGroupMap map)
{
    private Backlog[] _backlogs = [];

    /// <summary>Gets how many requests have ever waited in a backlog.</summary>
    public long Backlogged { get; private set; }

    /// <summary>Gets how many requests wait in a group's backlog.</summary>
    public int Count(int group) => _backlogs[group].Waiting.Count;

    /// <summary>Keeps one backlog per group; they carry over when the number of groups stays.</summary>
    public void Resize(int groups)
    {
        if (_backlogs.Length != groups)
        {
            var backlogs = new Backlog[groups];
            for (var g = 0; g < backlogs.Length; g++)
            {
                backlogs[g] = g < _backlogs.Length ? _backlogs[g] : new Backlog();
            }

            _backlogs = backlogs;
        }
    }

    /// <summary>Queues a request and arms its group's retry; <see langword="false"/> when the backlog is full.</summary>
    public bool TryEnqueue(TRequest request, int group, long now)
    {
        var backlog = _backlogs[group];
        if (backlog.Waiting.Count >= options.MaxBacklog)
        {
            return false;
        }

        var wasEmpty = backlog.Waiting.Count == 0;
        backlog.Waiting.PushBack(request);
        Backlogged++;
        if (wasEmpty)
        {
            // Behind a waiting request the retry is armed already; the first one arms it.
            ArmRetry(group, now);
        }

        return true;
    }

    /// <summary>Takes a waiting request out of its backlog; whether it was waiting.</summary>
    public bool Remove(TRequest request, int group)
    {
        var waiting = _backlogs[group].Waiting;
        for (var i = 0; i < waiting.Count; i++)
        {
            if (EqualityComparer<TRequest>.Default.Equals(waiting[i], request))
            {
                waiting.RemoveAt(i);
                return true;
            }
        }

        return false;
    }

    /// <summary>A group's retry timer fired; a firing before the armed due is stale and ignored.</summary>
    public void OnRetryTimer(int group, long now)
    {
        if (now < _backlogs[group].RetryDue)
        {
            return;
        }

        RetryNow(group, now);
    }

    /// <summary>Retries a group's backlog now, whatever retry was armed.</summary>
    public void RetryNow(int group, long now)
    {
        _backlogs[group].RetryDue = long.MaxValue;
        if (options.AutoRelease)
        {
            Pump(group, now);
        }
    }

    /// <summary>Releases the oldest request of a group if the selector answers a replica or a failure; else arms the retry.</summary>
    public bool TryReleaseOne(int group, long now, out TRequest request, out int replica, out string? failure)
    {
        replica = -1;
        failure = null;
        var backlog = _backlogs[group];
        if (!backlog.Waiting.TryPeekFront(out request))
        {
            return false;
        }

        var choice = selector.Choose(map.Views[group], now);
        if (choice.Kind == ReplicaChoiceKind.Backlog)
        {
            ArmRetry(group, now);
            request = default!;
            return false;
        }

        backlog.Waiting.TryPopFront(out _);
        if (choice.Kind == ReplicaChoiceKind.Replica)
        {
            replica = map.Members[group][choice.Index];
        }
        else
        {
            failure = choice.Reason ?? "No replica can take the request.";
        }

        return true;
    }

    /// <summary>A replica may take requests again (a response raised its rate, it came up): retry every group holding it.</summary>
    public void RetryHolding(int replica, long now)
    {
        if (replica < 0 || !options.AutoRelease)
        {
            return;
        }

        foreach (var group in map.Holding[replica])
        {
            if (_backlogs[group].Waiting.Count > 0)
            {
                Pump(group, now);
            }
        }
    }

    /// <summary>How long until a replica of the group can take a request, as the selector sees it; <see langword="null"/> when it cannot tell.</summary>
    public long? TimeUntilAvailable(int group, long now) =>
        selector is IBackpressureAware aware ? aware.TimeUntilAvailable(map.Views[group], now) : null;

    private void Pump(int group, long now)
    {
        while (TryReleaseOne(group, now, out var request, out var replica, out var failure))
        {
            if (failure is null)
            {
                host.Dispatch(request, replica, isLocal: false);
            }
            else
            {
                host.Fail(request, failure);
            }
        }
    }

    private void ArmRetry(int group, long now)
    {
        var backlog = _backlogs[group];
        if (backlog.Waiting.Count == 0)
        {
            return;
        }

        if (TimeUntilAvailable(group, now) is not { } wait)
        {
            if (HasOutstanding(group))
            {
                // A response will retry the backlog.
                return;
            }

            // Nothing will free a replica by itself: fail what waits rather than lose it.
            while (backlog.Waiting.TryPopFront(out var request))
            {
                host.Fail(request, "Every replica of the group is over its rate, and the selector cannot tell when one frees up.");
            }

            return;
        }

        var due = now + Math.Max(1, wait);
        if (due < backlog.RetryDue)
        {
            backlog.RetryDue = due;
            host.ScheduleRetry(group, due);
        }
    }

    private bool HasOutstanding(int group)
    {
        foreach (var replica in map.Views[group])
        {
            if (replica.Outstanding > 0)
            {
                return true;
            }
        }

        return false;
    }

    private sealed class Backlog
    {
        public Deque<TRequest> Waiting { get; } = new();

        /// <summary>Gets or sets when the armed retry is due; <see cref="long.MaxValue"/> when none is.</summary>
        public long RetryDue { get; set; } = long.MaxValue;
    }
}
