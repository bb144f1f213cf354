// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Internal;
using Cicero.Workflows;

namespace Cicero.Resources;

// Granting permits: release, and handing freed permits to waiters in the scheduler's order.
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
            if (!_grants.TryRelease(grantIndex, version, out var grant))
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
            _inUse--;
            capacity = _capacity;
            hasWaiters = _scheduler.Count > 0;
        }

        if (_trackProgress)
        {
            context!.Progress.AddLocalWork(heldSeconds, heldSeconds / capacity);
        }

        _instruments.Served(heldSeconds);

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
                if (!_waiters.TryDequeueLocked(now, out var ticket, out waiter))
                {
                    return;
                }

                waited = now - ticket.EnqueuedAt;
                if (_dropExpired && ticket.DeadlineTimestamp != long.MaxValue && !CanFinishInTime(ticket, now))
                {
                    // Its caller has given up, or will have before this sub-task ends: refuse it and keep the permit
                    // for the next waiter. The scheduler hears of it as a sub-task that took no time, so its
                    // accounting stays balanced.
                    _scheduler.OnCompleted(new SubtaskCompletion(ticket.Workflow, ticket.Context, ticket.Cost, ticket.SubtaskType, TimeSpan.Zero));
                    _instruments.Rejected(DropReason.DeadlineInfeasible);
                    lease = SubtaskLease.Rejected(DropReason.DeadlineInfeasible);
                }
                else
                {
                    lease = GrantLocked(ticket.Workflow, ticket.Context, ticket.SubtaskType, now, ticket.Cost);
                }
            }

            _instruments.QueueLengthChanged(-1);
            _instruments.Waited((double)waited / _timestampFrequency);
            waiter.SetResult(lease);
        }
    }

    /// <summary>
    /// Whether the sub-task, started now, ends by its request's deadline on this resource's mean service time for its
    /// workflow and type, or what is left of the request's own estimate if shorter (just whether the deadline has not
    /// passed while there is no mean yet).
    /// </summary>
    private bool CanFinishInTime(in SubtaskTicket ticket, long now)
    {
        if (ticket.DeadlineTimestamp <= now)
        {
            return false;
        }

        var service = _usage.GetServiceTime(ticket.Workflow.Index, ticket.SubtaskType);
        return service is not { } mean || now + (long)(ServiceSeconds(mean, ticket.Context) * _timestampFrequency) <= ticket.DeadlineTimestamp;
    }

    // A request that carries its own estimate needs at most what is left of it: the mean over a workflow whose requests
    // differ in size by orders of magnitude would refuse a small request that still fits.
    private static double ServiceSeconds(TimeSpan mean, RequestContext context) =>
        context.EstimatedTotal.ServiceTime > 0 ? Math.Min(mean.TotalSeconds, context.RemainingServiceTime) : mean.TotalSeconds;

    private SubtaskLease GrantLocked(WorkflowSlot workflow, RequestContext context, int subtaskType, long now, double cost)
    {
        var index = _grants.Take(workflow, context, subtaskType, cost, now);
        _usage.MarkActive(workflow.Index);
        _inUse++;
        return new SubtaskLease(this, index, _grants.VersionOf(index));
    }
}
