// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using Cicero.Context;
using Cicero.Internal;
using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>
/// The sub-tasks waiting for a resource's permit: their tickets in the scheduler, counted in their workflow's waiting
/// demand, on pooled awaitable nodes; and their cancellation. A waiter is in the scheduler exactly when its node's
/// <c>IsQueued</c> is set.
/// </summary>
/// <remarks>
/// Shares its <see cref="ResourceSemaphore"/>'s lock: the methods named <c>...Locked</c> run under that lock (as every
/// call to the scheduler does); the others take it. Waiters are completed only outside it.
/// </remarks>
internal sealed class SubtaskWaiters : IWaitNodeOwner<SubtaskLease, SubtaskTicket>
{
    private readonly Lock _lock;
    private readonly ISubtaskScheduler _scheduler;
    private readonly ResourceUsage _usage;
    private readonly TimeProvider _timeProvider;
    private readonly long _timestampFrequency;
    private readonly ResourceInstruments _instruments;
    private readonly bool _asyncContinuations;
    private readonly Stack<WaitNode<SubtaskLease, SubtaskTicket>> _pool = new();
    private long _nextTicketId;

    public SubtaskWaiters(Lock sharedLock, ISubtaskScheduler scheduler, ResourceUsage usage, TimeProvider timeProvider, ResourceInstruments instruments, bool asyncContinuations)
    {
        _lock = sharedLock;
        _scheduler = scheduler;
        _usage = usage;
        _timeProvider = timeProvider;
        _timestampFrequency = timeProvider.TimestampFrequency;
        _instruments = instruments;
        _asyncContinuations = asyncContinuations;
    }

    /// <summary>Queues a sub-task in the scheduler and counts it as waiting; the caller registers its cancellation outside the lock.</summary>
    public WaitNode<SubtaskLease, SubtaskTicket> EnqueueLocked(WorkflowSlot workflow, RequestContext context, double cost, int subtaskType, long now, CancellationToken cancellationToken)
    {
        var waiter = _pool.Count > 0 ? _pool.Pop() : new WaitNode<SubtaskLease, SubtaskTicket>(this);
        waiter.Reset(_asyncContinuations, cancellationToken);
        var ticket = new SubtaskTicket
        {
            Id = ++_nextTicketId,
            Workflow = workflow,
            Context = context,
            Cost = cost,
            SubtaskType = subtaskType,
            EnqueuedAt = now,
            DeadlineTimestamp = context.GetDeadlineTimestamp(_timestampFrequency),
            Waiter = waiter,
        };
        waiter.Payload = ticket;
        _scheduler.Enqueue(ticket);
        _usage.ChangeWaiting(workflow.Index, 1, now);
        return waiter;
    }

    /// <summary>Takes the waiter the scheduler picks next, no longer counted as waiting; false when the scheduler holds it back.</summary>
    public bool TryDequeueLocked(long now, out SubtaskTicket ticket, out WaitNode<SubtaskLease, SubtaskTicket> waiter)
    {
        if (!_scheduler.TryDequeue(now, out ticket))
        {
            waiter = null!;
            return false;
        }

        waiter = (WaitNode<SubtaskLease, SubtaskTicket>)ticket.Waiter!;
        Debug.Assert(waiter.IsQueued, "A scheduler returned a ticket that is not waiting.");
        waiter.IsQueued = false;
        _usage.ChangeWaiting(ticket.Workflow.Index, -1, now);
        return true;
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

        _instruments.QueueLengthChanged(-1);
        waiter.SetCanceled();
    }

    void IWaitNodeOwner<SubtaskLease, SubtaskTicket>.Return(WaitNode<SubtaskLease, SubtaskTicket> waiter)
    {
        lock (_lock)
        {
            if (_pool.Count < 256)
            {
                _pool.Push(waiter);
            }
        }
    }
}
