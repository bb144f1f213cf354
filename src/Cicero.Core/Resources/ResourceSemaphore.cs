// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Internal;
using Cicero.Measurement;
using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>
/// A semaphore-guarded resource (a thread pool, a connection pool, a disk) whose waiters are ordered by a pluggable
/// <see cref="ISubtaskScheduler"/>. The time each permit is held is measured and feeds the local model.
/// </summary>
/// <remarks>
/// <para>
/// The state machine and its invariants, all under <c>_lock</c>: <c>_inUse</c> counts the permit slots held
/// (<see cref="PermitGrants"/>, whose versions make a stale lease's release a no-op); a permit is granted only while
/// <c>_inUse &lt; _capacity</c> (after <see cref="Configure"/> shrinks the capacity, held permits beyond it drain as
/// they are released); a waiter is in the scheduler exactly when its node's <c>IsQueued</c> is set, and is counted once
/// in its workflow's waiting demand (<see cref="SubtaskWaiters"/>); the scheduler is called only under the lock, and
/// waiters are completed only outside it. Files: acquisition and configuration here, granting in
/// ResourceSemaphore.Granting.cs, measurements in ResourceSemaphore.Measurement.cs; what it reports in
/// <see cref="ResourceInstruments"/>.
/// </para>
/// Thread-safe. An uncontended acquire completes synchronously and allocates nothing; queued waiters use pooled
/// <see cref="System.Threading.Tasks.Sources.IValueTaskSource{TResult}"/> nodes. The scheduler runs under this
/// resource's lock.
/// </remarks>
public sealed partial class ResourceSemaphore
{
    private readonly Lock _lock = new();
    private readonly ISubtaskScheduler _scheduler;
    private readonly TimeProvider _timeProvider;
    private readonly long _timestampFrequency;
    private readonly ResourceUsage _usage;
    private readonly PermitGrants _grants;
    private readonly SubtaskWaiters _waiters;
    private readonly ResourceInstruments _instruments;
    private readonly bool _trackProgress;
    private readonly bool _dropExpired;
    private int _capacity;
    private int _maxQueueLength;
    private int _inUse;

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
        _timestampFrequency = _timeProvider.TimestampFrequency;
        _capacity = options.Capacity;
        _maxQueueLength = options.MaxQueueLength;
        _trackProgress = options.TrackRequestProgress;
        _dropExpired = options.DropExpiredWaiters;
        _usage = new ResourceUsage(registry.SlotCapacity, _timestampFrequency, modelOptions ?? new LocalModelOptions());
        _grants = new PermitGrants(options.Capacity);
        _instruments = new ResourceInstruments(Name);
        _waiters = new SubtaskWaiters(_lock, _scheduler, _usage, _timeProvider, _instruments, options.RunContinuationsAsynchronously);
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
                _instruments.Rejected(DropReason.QueueFull);
                return new ValueTask<SubtaskLease>(SubtaskLease.Rejected(DropReason.QueueFull));
            }

            waiter = _waiters.EnqueueLocked(workflow, context, cost, subtaskType, now, cancellationToken);
            permitFree = _inUse < _capacity;
        }

        _instruments.QueueLengthChanged(1);

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
}
