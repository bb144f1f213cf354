// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Internal;
using Cicero.Workflows;

namespace Cicero.Resources;

// Granting permits: release, handing freed permits to waiters in the scheduler's order, cancellation.
public sealed partial class ResourceSemaphore
{
    internal void Release(int grantIndex, int version)
    {
        var now = _timeProvider.GetTimestamp();
        RequestContext? context;
        double heldSeconds;
        int capacity;
        bool hasWaiters;
        lock (_lock)
        {
            if ((uint)grantIndex >= (uint)_grants.Length)
            {
                return;
            }

            ref var grant = ref _grants[grantIndex];
            if (!grant.InUse || grant.Version != version)
            {
                return;
            }

            var held = now - grant.AcquiredAt;
            heldSeconds = (double)held / _timestampFrequency;
            _usage.AddBusy(grant.Workflow!.Index, now - grant.AccountedFrom);
            _usage.AddServiceSample(grant.Workflow!.Index, grant.SubtaskType, held);
            context = grant.Context;
            _scheduler.OnCompleted(new SubtaskCompletion(
                grant.Workflow, context!, grant.Cost, grant.SubtaskType, TimeSpan.FromSeconds(heldSeconds)));
            grant.InUse = false;
            grant.Context = null;
            grant.Workflow = null;
            grant.Version++;
            _freeGrants[_freeCount++] = grantIndex;
            _inUse--;
            capacity = _capacity;
            hasWaiters = _scheduler.Count > 0;
        }

        if (_trackProgress)
        {
            context!.Progress.AddLocalWork(heldSeconds, heldSeconds / capacity);
        }

        if (CiceroInstruments.ResourceServiceDuration.Enabled)
        {
            CiceroInstruments.ResourceServiceDuration.Record(heldSeconds, _resourceTag);
        }

        if (hasWaiters)
        {
            GrantWaiters();
        }
    }

    private void GrantWaiters()
    {
        while (true)
        {
            WaitNode<SubtaskLease, SubtaskTicket>? waiter = null;
            SubtaskLease lease = default;
            long waited = 0;
            lock (_lock)
            {
                if (_inUse >= _capacity || _scheduler.Count == 0)
                {
                    return;
                }

                var now = _timeProvider.GetTimestamp();
                if (!_scheduler.TryDequeue(now, out var ticket))
                {
                    return;
                }

                waiter = (WaitNode<SubtaskLease, SubtaskTicket>)ticket.Waiter!;
                Debug.Assert(waiter.IsQueued, "A scheduler returned a ticket that is not waiting.");
                waiter.IsQueued = false;
                _usage.ChangeWaiting(ticket.Workflow.Index, -1, now);
                waited = now - ticket.EnqueuedAt;
                if (_dropExpired && ticket.DeadlineTimestamp != long.MaxValue && !CanFinishInTime(ticket, now))
                {
                    // Its caller has given up, or will have before this sub-task ends: refuse it and keep the permit
                    // for the next waiter. The scheduler hears of it as a sub-task that took no time, so its
                    // accounting stays balanced.
                    _scheduler.OnCompleted(new SubtaskCompletion(ticket.Workflow, ticket.Context, ticket.Cost, ticket.SubtaskType, TimeSpan.Zero));
                    RecordRejection(DropReason.DeadlineInfeasible);
                    lease = SubtaskLease.Rejected(DropReason.DeadlineInfeasible);
                }
                else
                {
                    lease = GrantLocked(ticket.Workflow, ticket.Context, ticket.SubtaskType, now, ticket.Cost);
                }
            }

            if (CiceroInstruments.ResourceQueueLength.Enabled)
            {
                CiceroInstruments.ResourceQueueLength.Add(-1, _resourceTag);
            }

            if (CiceroInstruments.ResourceWaitDuration.Enabled)
            {
                CiceroInstruments.ResourceWaitDuration.Record((double)waited / _timestampFrequency, _resourceTag);
            }

            waiter.SetResult(lease);
        }
    }

    /// <summary>
    /// Whether the sub-task, started now, ends by its request's deadline on this resource's mean service time for its
    /// workflow and type (just whether the deadline has not passed while there is no estimate yet).
    /// </summary>
    private bool CanFinishInTime(in SubtaskTicket ticket, long now)
    {
        if (ticket.DeadlineTimestamp <= now)
        {
            return false;
        }

        var service = _usage.GetServiceTime(ticket.Workflow.Index, ticket.SubtaskType);
        return service is not { } mean || now + (long)(mean.TotalSeconds * _timestampFrequency) <= ticket.DeadlineTimestamp;
    }

    private SubtaskLease GrantLocked(WorkflowSlot workflow, RequestContext context, int subtaskType, long now, double cost)
    {
        if (_freeCount == 0)
        {
            GrowGrants();
        }

        var index = _freeGrants[--_freeCount];
        ref var grant = ref _grants[index];
        grant.InUse = true;
        grant.Workflow = workflow;
        grant.SubtaskType = subtaskType;
        grant.Cost = cost;
        grant.Context = context;
        grant.AcquiredAt = now;
        grant.AccountedFrom = now;
        _usage.MarkActive(workflow.Index);
        _inUse++;
        return new SubtaskLease(this, index, grant.Version);
    }

    private void GrowGrants()
    {
        // Capacity grew past the slots we had (Configure); permits beyond the old capacity get new slots.
        var oldLength = _grants.Length;
        Array.Resize(ref _grants, oldLength * 2);
        Array.Resize(ref _freeGrants, oldLength * 2);
        for (var i = _grants.Length - 1; i >= oldLength; i--)
        {
            _freeGrants[_freeCount++] = i;
        }
    }

    void IWaitNodeOwner<SubtaskLease, SubtaskTicket>.OnCancelled(WaitNode<SubtaskLease, SubtaskTicket> waiter)
    {
        lock (_lock)
        {
            if (!waiter.IsQueued)
            {
                return;
            }

            var removed = _scheduler.TryRemove(waiter.Payload);
            Debug.Assert(removed, "A queued waiter was missing from its scheduler.");
            _usage.ChangeWaiting(waiter.Payload.Workflow.Index, -1, _timeProvider.GetTimestamp());
            waiter.IsQueued = false;
        }

        if (CiceroInstruments.ResourceQueueLength.Enabled)
        {
            CiceroInstruments.ResourceQueueLength.Add(-1, _resourceTag);
        }

        waiter.SetCanceled();
    }

    void IWaitNodeOwner<SubtaskLease, SubtaskTicket>.Return(WaitNode<SubtaskLease, SubtaskTicket> waiter)
    {
        lock (_lock)
        {
            if (_waiterPool.Count < 256)
            {
                _waiterPool.Push(waiter);
            }
        }
    }

    private void RecordRejection(DropReason reason)
    {
        if (CiceroInstruments.SubtasksDropped.Enabled)
        {
            CiceroInstruments.SubtasksDropped.Add(
                1, _resourceTag, new KeyValuePair<string, object?>(CiceroTelemetry.DropReasonTag, CiceroInstruments.ToTag(reason)));
        }
    }

    private struct Grant
    {
        public bool InUse;
        public int Version;
        public WorkflowSlot? Workflow;
        public int SubtaskType;
        public double Cost;
        public long AcquiredAt;
        public long AccountedFrom;
        public RequestContext? Context;
    }
}
