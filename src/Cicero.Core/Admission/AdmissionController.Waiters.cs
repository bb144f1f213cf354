// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Internal;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.Admission;

public sealed partial class AdmissionController
{
    /// <summary>Stops the controller: queued requests complete with <see cref="ObjectDisposedException"/> rather than hang.</summary>
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
            RecordQueueLength(-1);
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

        RecordQueueLength(-1);
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

    private void OnTimer()
    {
        List<(WaitNode<AdmissionResult, RequestContext> Node, WorkflowSlot Slot)>? released = null;
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
                    limiter.LastAdmittedAt = now;
                    limiter.Queue.TryPopFront(out var node);
                    node!.IsQueued = false;
                    (released ??= []).Add((node, Registry[index]));
                }

                if (limiter.Queue.Count == 0)
                {
                    limiter.IsWaitingListed = false;
                    _waiting.RemoveAt(i);
                }
            }

            ArmTimerLocked(now);
        }

        if (released is null)
        {
            return;
        }

        foreach (var (node, slot) in released)
        {
            RecordQueueLength(-1);
            RecordOutcome(slot, _model?.Find(slot.Index), DropReason.None);
            node.SetResult(AdmissionResult.Admitted);
        }
    }

    private void ArmTimerLocked(long now)
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

    internal static void RecordOutcome(WorkflowSlot slot, WorkflowModel? model, DropReason reason)
    {
        var workflowTag = new KeyValuePair<string, object?>(CiceroTelemetry.WorkflowTag, slot.Id.Value);
        if (reason == DropReason.None)
        {
            model?.RecordAdmitted();
            if (CiceroInstruments.RequestsAdmitted.Enabled)
            {
                CiceroInstruments.RequestsAdmitted.Add(1, workflowTag);
            }
        }
        else if (CiceroInstruments.RequestsDropped.Enabled)
        {
            CiceroInstruments.RequestsDropped.Add(
                1, workflowTag, new KeyValuePair<string, object?>(CiceroTelemetry.DropReasonTag, CiceroInstruments.ToTag(reason)));
        }
    }

    private static void RecordQueueLength(int delta)
    {
        if (CiceroInstruments.AdmissionQueueLength.Enabled)
        {
            CiceroInstruments.AdmissionQueueLength.Add(delta);
        }
    }
}
