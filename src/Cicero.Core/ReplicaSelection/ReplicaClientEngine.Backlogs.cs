// SPDX-License-Identifier: Apache-2.0

using Cicero.Internal;

namespace Cicero.ReplicaSelection;

/// <summary>The backlogs: releasing waiting requests on responses and retry timers.</summary>
public sealed partial class ReplicaClientEngine<TRequest>
{
    /// <summary>
    /// The retry timer of a group fired, on a clock that fires exactly at the due it was asked for (an event loop):
    /// a firing before the armed due is stale (a sooner retry replaced it) and is ignored.
    /// </summary>
    /// <param name="group">The group.</param>
    /// <param name="now">The current timestamp.</param>
    public void OnRetryTimer(int group, long now)
    {
        if (now < _backlogs[group].RetryDue)
        {
            return;
        }

        RetryNow(group, now);
    }

    /// <summary>
    /// Retries a group's backlog now, whatever retry was armed: for a host with one timer per group that it re-arms in
    /// place, whose firing is never stale but may come a little before the due (a coarse system timer).
    /// </summary>
    /// <param name="group">The group.</param>
    /// <param name="now">The current timestamp.</param>
    public void RetryNow(int group, long now)
    {
        _backlogs[group].RetryDue = long.MaxValue;
        if (_options.AutoRelease)
        {
            Pump(group, now);
        }
    }

    /// <summary>
    /// Releases the oldest request of a group's backlog if the selector now answers a replica or a failure for it;
    /// otherwise arms the group's retry. For hosts that release requests themselves
    /// (<see cref="ReplicaClientEngineOptions.AutoRelease"/> off); the host sends or fails the request it gets.
    /// </summary>
    /// <param name="group">The group.</param>
    /// <param name="now">The current timestamp.</param>
    /// <param name="request">The released request.</param>
    /// <param name="replica">Its replica's index, or -1 when it failed.</param>
    /// <param name="failure">Why it failed, or <see langword="null"/>.</param>
    /// <returns>Whether a request was released.</returns>
    public bool TryReleaseOne(int group, long now, out TRequest request, out int replica, out string? failure)
    {
        replica = -1;
        failure = null;
        var backlog = _backlogs[group];
        if (!backlog.Waiting.TryPeekFront(out request))
        {
            return false;
        }

        var choice = _selector.Choose(_groups[group], now);
        if (choice.Kind == ReplicaChoiceKind.Backlog)
        {
            ArmRetry(group, now);
            request = default!;
            return false;
        }

        backlog.Waiting.TryPopFront(out _);
        if (choice.Kind == ReplicaChoiceKind.Replica)
        {
            replica = _members[group][choice.Index];
        }
        else
        {
            failure = choice.Reason ?? "No replica can take the request.";
        }

        return true;
    }

    private void Complete(ReplicaState view, int index, in ReplicaFeedback feedback, long now)
    {
        if (view.Outstanding > 0)
        {
            view.Outstanding--;
        }

        _selector.OnFeedback(view, feedback, now);
        if (!feedback.Failed && index >= 0 && _backoff is not null)
        {
            // The replica is alive: its next refusal starts the back-off from the bottom again.
            _backoff[index] = 0;
        }

        RetryHolding(index, now);
    }

    /// <summary>A replica may take requests again (a response raised its rate, it came up): retry every group holding it.</summary>
    private void RetryHolding(int replica, long now)
    {
        if (replica < 0 || !_options.AutoRelease)
        {
            return;
        }

        foreach (var group in _holding[replica])
        {
            if (_backlogs[group].Waiting.Count > 0)
            {
                Pump(group, now);
            }
        }
    }

    private void Pump(int group, long now)
    {
        while (TryReleaseOne(group, now, out var request, out var replica, out var failure))
        {
            if (failure is null)
            {
                _host.Dispatch(request, replica, isLocal: false);
            }
            else
            {
                _host.Fail(request, failure);
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
                _host.Fail(request, "Every replica of the group is over its rate, and the selector cannot tell when one frees up.");
            }

            return;
        }

        var due = now + Math.Max(1, wait);
        if (due < backlog.RetryDue)
        {
            backlog.RetryDue = due;
            _host.ScheduleRetry(group, due);
        }
    }

    private bool HasOutstanding(int group)
    {
        foreach (var replica in _groups[group])
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
