// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Internal;
using Cicero.Measurement;
using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>
/// A semaphore-guarded resource (a thread pool, a connection pool, a disk) whose waiters are ordered by a pluggable
/// <see cref="ISubtaskScheduler"/>. The time each permit is held is measured and feeds the local model.
/// </summary>
/// <remarks>
/// Thread-safe. An uncontended acquire completes synchronously and allocates nothing; queued waiters use pooled
/// <see cref="System.Threading.Tasks.Sources.IValueTaskSource{TResult}"/> nodes. The scheduler runs under this
/// resource's lock.
/// </remarks>
public sealed class ResourceSemaphore : IWaitNodeOwner<SubtaskLease, SubtaskTicket>
{
    private readonly Lock _lock = new();
    private readonly ISubtaskScheduler _scheduler;
    private readonly TimeProvider _timeProvider;
    private readonly ResourceUsage _usage;
    private readonly Stack<WaitNode<SubtaskLease, SubtaskTicket>> _waiterPool = new();
    private readonly KeyValuePair<string, object?> _resourceTag;
    private readonly bool _trackProgress;
    private readonly bool _dropExpired;
    private readonly bool _asyncContinuations;
    private Grant[] _grants;
    private int[] _freeGrants;
    private int _freeCount;
    private int _capacity;
    private int _maxQueueLength;
    private int _inUse;
    private long _nextTicketId;

    /// <summary>Creates a resource.</summary>
    /// <param name="options">Name, capacity and queue bound.</param>
    /// <param name="registry">The process's workflow registry.</param>
    /// <param name="scheduler">Orders waiters; FIFO when <see langword="null"/>.</param>
    /// <param name="timeProvider">The clock; the system clock when <see langword="null"/>.</param>
    /// <param name="modelOptions">Smoothing of the load and service-time averages; defaults when <see langword="null"/>.</param>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public ResourceSemaphore(
        ResourceSemaphoreOptions options,
        WorkflowRegistry registry,
        ISubtaskScheduler? scheduler = null,
        TimeProvider? timeProvider = null,
        LocalModelOptions? modelOptions = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(registry);
        options.Validate();
        Name = options.Name;
        Registry = registry;
        _scheduler = scheduler ?? new FifoScheduler();
        _timeProvider = timeProvider ?? TimeProvider.System;
        _capacity = options.Capacity;
        _maxQueueLength = options.MaxQueueLength;
        _trackProgress = options.TrackRequestProgress;
        _asyncContinuations = options.RunContinuationsAsynchronously;
        _dropExpired = options.DropExpiredWaiters;
        _usage = new ResourceUsage(registry.SlotCapacity, _timeProvider.TimestampFrequency, modelOptions ?? new LocalModelOptions());
        _grants = new Grant[options.Capacity];
        _freeGrants = new int[options.Capacity];
        for (var i = 0; i < options.Capacity; i++)
        {
            _freeGrants[i] = options.Capacity - 1 - i;
        }

        _freeCount = options.Capacity;
        _resourceTag = new KeyValuePair<string, object?>(CiceroTelemetry.ResourceTag, Name);
        _scheduler.OnCapacityChanged(options.Capacity);
    }

    /// <summary>Gets the resource's name.</summary>
    public string Name { get; }

    /// <summary>Gets the workflow registry the resource accounts by.</summary>
    public WorkflowRegistry Registry { get; }

    /// <summary>Gets the number of permits.</summary>
    public int Capacity
    {
        get
        {
            lock (_lock)
            {
                return _capacity;
            }
        }
    }

    /// <summary>Gets the bound on waiting sub-tasks.</summary>
    public int MaxQueueLength
    {
        get
        {
            lock (_lock)
            {
                return _maxQueueLength;
            }
        }
    }

    /// <summary>Gets the number of permits held.</summary>
    public int InUse
    {
        get
        {
            lock (_lock)
            {
                return _inUse;
            }
        }
    }

    /// <summary>Gets the number of waiting sub-tasks.</summary>
    public int QueueLength
    {
        get
        {
            lock (_lock)
            {
                return _scheduler.Count;
            }
        }
    }

    /// <summary>Gets the total load: the sum over workflows of their demand (permits held plus sub-tasks waiting).</summary>
    public double TotalLoad
    {
        get
        {
            lock (_lock)
            {
                return _usage.TotalLoad;
            }
        }
    }

    /// <summary>Acquires a permit, waiting in the scheduler's order if none is free.</summary>
    /// <param name="context">The request the sub-task belongs to.</param>
    /// <param name="cost">The sub-task's expected cost, used by cost-aware schedulers; must be finite and not negative.</param>
    /// <param name="subtaskType">The sub-task type, for per-type service-time estimates.</param>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>
    /// A lease to dispose when the sub-task is done, or, when the wait queue is full, a lease that is not acquired and
    /// says why (<see cref="DropReason.QueueFull"/>).
    /// </returns>
    /// <exception cref="OperationCanceledException">The wait was cancelled.</exception>
    public ValueTask<SubtaskLease> AcquireAsync(RequestContext context, double cost = 1.0, int subtaskType = 0, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (!double.IsFinite(cost) || cost < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(cost), cost, "The cost must be a finite, non-negative number.");
        }

        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<SubtaskLease>(cancellationToken);
        }

        var workflow = Registry.Resolve(context);
        var now = _timeProvider.GetTimestamp();
        WaitNode<SubtaskLease, SubtaskTicket> waiter;
        bool permitFree;
        lock (_lock)
        {
            _usage.AddArrival(workflow.Index);
            if (_scheduler.Count == 0 && _inUse < _capacity && _scheduler.TryStartImmediately(workflow, cost))
            {
                return new ValueTask<SubtaskLease>(GrantLocked(workflow, context, subtaskType, now, cost));
            }

            if (_scheduler.Count >= _maxQueueLength)
            {
                RecordRejection(DropReason.QueueFull);
                return new ValueTask<SubtaskLease>(SubtaskLease.Rejected(DropReason.QueueFull));
            }

            waiter = _waiterPool.Count > 0 ? _waiterPool.Pop() : new WaitNode<SubtaskLease, SubtaskTicket>(this);
            waiter.Reset(_asyncContinuations, cancellationToken);
            var ticket = new SubtaskTicket
            {
                Id = ++_nextTicketId,
                Workflow = workflow,
                Context = context,
                Cost = cost,
                SubtaskType = subtaskType,
                EnqueuedAt = now,
                DeadlineTimestamp = context.GetDeadlineTimestamp(_timeProvider.TimestampFrequency),
                Waiter = waiter,
            };
            waiter.Payload = ticket;
            _scheduler.Enqueue(ticket);
            _usage.ChangeWaiting(workflow.Index, 1, now);
            permitFree = _inUse < _capacity;
        }

        if (CiceroInstruments.ResourceQueueLength.Enabled)
        {
            CiceroInstruments.ResourceQueueLength.Add(1, _resourceTag);
        }

        waiter.RegisterCancellation();
        if (permitFree)
        {
            // A scheduler held a free permit back (a reservation); the new arrival may be the one it was kept for.
            GrantWaiters();
        }

        return waiter.AsValueTask();
    }

    /// <summary>Changes the capacity and queue bound (Table 5.1's ConfigureResourceSemaphore).</summary>
    /// <param name="capacity">The new number of permits; held permits beyond it drain as they are released.</param>
    /// <param name="maxQueueLength">The new queue bound; waiters already queued beyond it keep their place.</param>
    public void Configure(int capacity, int maxQueueLength)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(maxQueueLength);
        lock (_lock)
        {
            _capacity = capacity;
            _maxQueueLength = maxQueueLength;
            _scheduler.OnCapacityChanged(capacity);
        }

        GrantWaiters();
    }

    /// <summary>
    /// Gets the workflow's load l, its demand on the resource: the average number of permits it held plus the average
    /// number of its sub-tasks waiting, smoothed over intervals. Σ l above the capacity means the resource is a bottleneck.
    /// </summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The load, in permits.</returns>
    public double GetLoad(WorkflowSlot workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        lock (_lock)
        {
            return _usage.GetLoad(workflow.Index);
        }
    }

    /// <summary>
    /// Gets the workflow's demand on the resource, its offered load: sub-tasks arriving per second times their mean
    /// service time, smoothed over intervals. Unlike <see cref="GetLoad"/> it stays below the capacity on a busy but
    /// healthy resource and exceeds it only when work arrives faster than the resource serves it.
    /// </summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The demand, in permits.</returns>
    public double GetDemand(WorkflowSlot workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        lock (_lock)
        {
            return _usage.GetDemand(workflow.Index);
        }
    }

    /// <summary>Gets the sum over workflows of their demand (<see cref="GetDemand"/>), in permits.</summary>
    public double TotalDemand
    {
        get
        {
            lock (_lock)
            {
                return _usage.TotalDemand;
            }
        }
    }

    /// <summary>
    /// Gets how many control intervals in a row, up to the last one closed, the wait queue never emptied: a standing
    /// queue, the sign that arrivals outpace service rather than merely bunch (CoDel's criterion).
    /// </summary>
    public int StandingQueueIntervals
    {
        get
        {
            lock (_lock)
            {
                return _usage.StandingQueueIntervals;
            }
        }
    }

    /// <summary>Gets the workflow's utilization of this resource: the average permits it held divided by the capacity.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The utilization in [0, 1] in steady state.</returns>
    public double GetUtilization(WorkflowSlot workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        lock (_lock)
        {
            return _usage.GetBusy(workflow.Index) / _capacity;
        }
    }

    /// <summary>Gets the average service time of the workflow's sub-tasks here, if any has completed.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="subtaskType">A sub-task type, or 0 for all of the workflow's sub-tasks.</param>
    /// <returns>The average, or <see langword="null"/> before the first completion.</returns>
    public TimeSpan? GetServiceTime(WorkflowSlot workflow, int subtaskType = 0)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        lock (_lock)
        {
            return _usage.GetServiceTime(workflow.Index, subtaskType);
        }
    }

    internal void CloseInterval(long now, double seconds)
    {
        lock (_lock)
        {
            // Count the part of the interval that still-held permits have been busy, so long holds show up as load.
            for (var i = 0; i < _grants.Length; i++)
            {
                ref var grant = ref _grants[i];
                if (grant.InUse)
                {
                    _usage.AddBusy(grant.Workflow!.Index, now - grant.AccountedFrom);
                    grant.AccountedFrom = now;
                }
            }

            _usage.CloseInterval(seconds, Registry.Count, now);
        }
    }

    internal void Release(int grantIndex, int version)
    {
        var now = _timeProvider.GetTimestamp();
        RequestContext? context;
        long held;
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

            held = now - grant.AcquiredAt;
            _usage.AddBusy(grant.Workflow!.Index, now - grant.AccountedFrom);
            _usage.AddServiceSample(grant.Workflow!.Index, grant.SubtaskType, held);
            context = grant.Context;
            _scheduler.OnCompleted(new SubtaskCompletion(
                grant.Workflow, context!, grant.Cost, grant.SubtaskType, TimeSpan.FromSeconds((double)held / _timeProvider.TimestampFrequency)));
            grant.InUse = false;
            grant.Context = null;
            grant.Workflow = null;
            grant.Version++;
            _freeGrants[_freeCount++] = grantIndex;
            _inUse--;
            capacity = _capacity;
            hasWaiters = _scheduler.Count > 0;
        }

        var heldSeconds = (double)held / _timeProvider.TimestampFrequency;
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
                CiceroInstruments.ResourceWaitDuration.Record((double)waited / _timeProvider.TimestampFrequency, _resourceTag);
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
        return service is not { } mean || now + (long)(mean.TotalSeconds * _timeProvider.TimestampFrequency) <= ticket.DeadlineTimestamp;
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
