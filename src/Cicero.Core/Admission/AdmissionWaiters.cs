// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Internal;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.Admission;

/// <summary>
/// The requests waiting in the workflows' admission queues: enqueuing them, releasing them in arrival order as their
/// buckets refill (one timer on the injected clock, armed for the earliest refill), cancelling, and failing them on disposal.
/// </summary>
/// <remarks>
/// Shares its <see cref="AdmissionController"/>'s lock and limiters: the methods named <c>...Locked</c> run under that
/// lock; the others take it. Waiters are completed only outside it. A workflow with a non-empty queue is in the waiting
/// list (a cancellation may leave it listed with an empty queue until the next release removes it).
/// </remarks>
internal sealed class AdmissionWaiters : IWaitNodeOwner<AdmissionResult, RequestContext>, IDisposable
{
    private readonly Lock _lock;
    private readonly TimeProvider _timeProvider;
    private readonly long _timestampFrequency;
    private readonly WorkflowRegistry _registry;
    private readonly LocalModel? _model;
    private readonly WorkflowLimiter?[] _limiters;
    private readonly AdmissionOptions _options;
    private readonly IDropPolicy _dropPolicy;
    private readonly List<int> _waiting = [];
    private readonly Stack<WaitNode<AdmissionResult, RequestContext>> _pool = new();
    private readonly ITimer _timer;
    private long _timerDue = long.MaxValue;

    public AdmissionWaiters(Lock sharedLock, TimeProvider timeProvider, WorkflowRegistry registry, LocalModel? model, WorkflowLimiter?[] limiters, AdmissionOptions options, IDropPolicy dropPolicy)
    {
        _dropPolicy = dropPolicy;
        _lock = sharedLock;
        _timeProvider = timeProvider;
        _timestampFrequency = timeProvider.TimestampFrequency;
        _registry = registry;
        _model = model;
        _limiters = limiters;
        _options = options;
        _timer = timeProvider.CreateTimer(static state => ((AdmissionWaiters)state!).ReleaseDue(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    /// <summary>Queues a request behind its workflow's earlier waiters and arms the timer; the caller holds the lock.</summary>
    public WaitNode<AdmissionResult, RequestContext> EnqueueLocked(WorkflowLimiter limiter, int index, RequestContext context, long now, CancellationToken cancellationToken)
    {
        var waiter = _pool.Count > 0 ? _pool.Pop() : new WaitNode<AdmissionResult, RequestContext>(this);
        waiter.Reset(_options.RunContinuationsAsynchronously, cancellationToken);
        waiter.Tag = index;
        waiter.Payload = context;
        limiter.Queue.PushBack(waiter);
        if (!limiter.IsWaitingListed)
        {
            limiter.IsWaitingListed = true;
            _waiting.Add(index);
        }

        ArmTimerLocked(now);
        return waiter;
    }

    /// <summary>
    /// Admits every waiter whose bucket now holds a token, in arrival order per workflow, and re-arms the timer. The drop
    /// policy is consulted again at each waiter's turn: one whose wait made it miss is refused and leaves the token to the next.
    /// </summary>
    public void ReleaseDue()
    {
        List<(WaitNode<AdmissionResult, RequestContext> Node, WorkflowSlot Slot)>? released = null;
        List<(WaitNode<AdmissionResult, RequestContext> Node, WorkflowSlot Slot)>? refused = null;
        lock (_lock)
        {
            var now = _timeProvider.GetTimestamp();
            _timerDue = long.MaxValue;
            for (var i = _waiting.Count - 1; i >= 0; i--)
            {
                var index = _waiting[i];
                var limiter = _limiters[index]!;
                limiter.Bucket.Refill(now);
                while (limiter.Queue.Count > 0 && limiter.Bucket.TryTake())
                {
                    limiter.Queue.TryPopFront(out var node);
                    node!.IsQueued = false;
                    if (_dropPolicy.RefusesAtTurn(node.Payload!, _registry[index], _model, limiter.Bucket.Rate, now, _timestampFrequency))
                    {
                        // Its wait made it miss: it takes no token, the next waiter gets this one.
                        limiter.Bucket.Return();
                        (refused ??= []).Add((node, _registry[index]));
                        continue;
                    }

                    limiter.LastAdmittedAt = now;
                    (released ??= []).Add((node, _registry[index]));
                }

                if (limiter.Queue.Count == 0)
                {
                    limiter.IsWaitingListed = false;
                    _waiting.RemoveAt(i);
                }
            }

            ArmTimerLocked(now);
        }

        foreach (var (node, slot) in refused ?? [])
        {
            AdmissionTelemetry.RecordQueueLength(-1);
            AdmissionTelemetry.RecordOutcome(slot, _model?.Find(slot.Index), DropReason.RateLimited);
            node.SetResult(new AdmissionResult(DropReason.RateLimited));
        }

        if (released is null)
        {
            return;
        }

        foreach (var (node, slot) in released)
        {
            AdmissionTelemetry.RecordQueueLength(-1);
            AdmissionTelemetry.RecordOutcome(slot, _model?.Find(slot.Index), DropReason.None);
            node.SetResult(AdmissionResult.Admitted);
        }
    }

    /// <summary>Arms the timer for the earliest time a waiting workflow's bucket holds a token; disarms it when none waits.</summary>
    public void ArmTimerLocked(long now)
    {
        var due = long.MaxValue;
        foreach (var index in _waiting)
        {
            // Refill first: a bucket last refilled long ago would otherwise look emptier than it is and push the timer out.
            var bucket = _limiters[index]!.Bucket;
            bucket.Refill(now);
            var wait = bucket.TimeUntil(bucket.Deficit);
            if (wait != long.MaxValue)
            {
                due = Math.Min(due, now + Math.Max(1, wait));
            }
        }

        if (due == _timerDue)
        {
            return;
        }

        _timerDue = due;
        if (due == long.MaxValue)
        {
            _timer.Change(Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
            return;
        }

        var ticks = (long)Math.Ceiling((double)(due - now) * TimeSpan.TicksPerSecond / _timestampFrequency);
        _timer.Change(TimeSpan.FromTicks(Math.Max(1, ticks)), Timeout.InfiniteTimeSpan);
    }

    /// <summary>Stops the timer; queued requests complete with <see cref="ObjectDisposedException"/> rather than hang.</summary>
    public void Dispose()
    {
        _timer.Dispose();
        List<WaitNode<AdmissionResult, RequestContext>>? abandoned = null;
        lock (_lock)
        {
            foreach (var index in _waiting)
            {
                var queue = _limiters[index]!.Queue;
                while (queue.TryPopFront(out var node))
                {
                    node!.IsQueued = false;
                    (abandoned ??= []).Add(node);
                }

                _limiters[index]!.IsWaitingListed = false;
            }

            _waiting.Clear();
        }

        if (abandoned is null)
        {
            return;
        }

        foreach (var node in abandoned)
        {
            AdmissionTelemetry.RecordQueueLength(-1);
            node.SetException(new ObjectDisposedException(nameof(AdmissionController), "The admission controller was disposed while the request waited."));
        }
    }

    void IWaitNodeOwner<AdmissionResult, RequestContext>.OnCancelled(WaitNode<AdmissionResult, RequestContext> node)
    {
        lock (_lock)
        {
            if (!node.IsQueued)
            {
                return;
            }

            var queue = _limiters[node.Tag]!.Queue;
            for (var i = 0; i < queue.Count; i++)
            {
                if (ReferenceEquals(queue[i], node))
                {
                    queue.RemoveAt(i);
                    break;
                }
            }

            node.IsQueued = false;
        }

        AdmissionTelemetry.RecordQueueLength(-1);
        node.SetCanceled();
    }

    void IWaitNodeOwner<AdmissionResult, RequestContext>.Return(WaitNode<AdmissionResult, RequestContext> node)
    {
        lock (_lock)
        {
            if (_pool.Count < 256)
            {
                _pool.Push(node);
            }
        }
    }
}
