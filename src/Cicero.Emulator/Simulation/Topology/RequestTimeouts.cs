// SPDX-License-Identifier: Apache-2.0

using Cicero.Time;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// The clients' RPC timeouts of one run, as a list in deadline order with one clock event pending for its head.
/// </summary>
/// <remarks>
/// Every request gets the same timeout when it is offered, and requests are offered in clock order, so the oldest
/// request still waiting always has the earliest deadline. A request that finishes leaves the list at once. A timer per
/// request instead held every request until its timeout passed, finished or not: clients refused at once resend every
/// millisecond, so 100,000 closed-loop clients under rate control kept ten seconds of their refused requests, gigabytes.
/// </remarks>
internal sealed class RequestTimeouts
{
    private static readonly Action<object?> OnDue = static state => ((RequestTimeouts)state!).TimeOutDue();

    private SimRequest? _head;
    private SimRequest? _tail;
    private bool _armed;
    private VirtualTimeProvider? _clock;

    /// <summary>Starts the request's timeout; <paramref name="timeoutAt"/> is never earlier than the last one added.</summary>
    public void Add(SimRequest request, long timeoutAt)
    {
        _clock ??= request.Simulation.Clock;
        request.TimeoutAt = timeoutAt;
        request.TimeoutPrevious = _tail;
        if (_tail is null)
        {
            _head = request;
        }
        else
        {
            _tail.TimeoutNext = request;
        }

        _tail = request;
        request.AwaitsTimeout = true;
        Arm();
    }

    /// <summary>Marks the request finished and forgets its timeout.</summary>
    public void Finish(SimRequest request)
    {
        request.Finished = true;
        Remove(request);
    }

    private void Remove(SimRequest request)
    {
        if (!request.AwaitsTimeout)
        {
            return;
        }

        request.AwaitsTimeout = false;
        var previous = request.TimeoutPrevious;
        var next = request.TimeoutNext;
        if (previous is null)
        {
            _head = next;
        }
        else
        {
            previous.TimeoutNext = next;
        }

        if (next is null)
        {
            _tail = previous;
        }
        else
        {
            next.TimeoutPrevious = previous;
        }

        request.TimeoutPrevious = null;
        request.TimeoutNext = null;
    }

    private void Arm()
    {
        if (!_armed && _head is { } head)
        {
            _armed = true;
            _clock!.ScheduleAt(head.TimeoutAt, OnDue, this);
        }
    }

    private void TimeOutDue()
    {
        _armed = false;
        var now = _clock!.GetTimestamp();
        while (_head is { } head && head.TimeoutAt <= now)
        {
            // The simulation's Finish removes it from the list.
            head.Simulation.Finish(head, Outcome.Failed(Outcome.Timeout));
            Remove(head);
        }

        Arm();
    }
}
