// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Cake's first-level scheduler (Cake §4.1): per-workflow queues served by proportional shares, plus reservations
/// that set permits aside for a workflow. A reserved permit is never used by another workflow, even while idle, and
/// the last shared permit can never be reserved.
/// </summary>
/// <remarks>
/// <para>
/// Shares are enforced by stride scheduling: each workflow has a pass value that grows by cost ÷ share per sub-task
/// served, the waiting workflow with the lowest pass goes next, and a workflow returning from idle starts at the
/// current virtual time, so idleness earns no credit. A workflow holding fewer permits than it has reserved is served
/// first. Permits beyond a workflow's reservation come from the shared pool (capacity − Σ reservations).
/// </para>
/// <para>
/// Single-threaded by contract, except <see cref="SetShare"/> and <see cref="TrySetReservation"/>, which Cake's
/// second-level controller calls from its own thread; they take effect at the next decision.
/// </para>
/// </remarks>
public sealed class CakeShareScheduler : ISubtaskScheduler
{
    private readonly CakeShareOptions _options;
    private readonly Flow?[] _flows;
    private readonly double[] _shares;
    private readonly int[] _reservations;
    private readonly List<int> _busy = [];
    private readonly Lock _settingsLock = new();
    private double _virtualTime;
    private int _capacity = 1;
    private int _count;
    private int _totalReserved;

    /// <summary>Creates the scheduler.</summary>
    /// <param name="options">Initial shares and reservations.</param>
    /// <param name="registry">The resource's workflow registry; state is kept per slot.</param>
    public CakeShareScheduler(CakeShareOptions options, WorkflowRegistry registry)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(registry);
        options.Validate();
        _options = options;
        Registry = registry;
        _flows = new Flow?[registry.SlotCapacity];
        _shares = new double[registry.SlotCapacity];
        _reservations = new int[registry.SlotCapacity];
        foreach (var (workflow, reserved) in options.Reservations)
        {
            _reservations[registry.Resolve(new WorkflowId(workflow)).Index] = reserved;
            _totalReserved += reserved;
        }

        foreach (var (workflow, share) in options.Shares)
        {
            _shares[registry.Resolve(new WorkflowId(workflow)).Index] = share;
        }
    }

    /// <summary>Gets the workflow registry the scheduler keeps state by.</summary>
    public WorkflowRegistry Registry { get; }

    /// <inheritdoc />
    int ISubtaskScheduler.Count => _count;

    /// <summary>Gets the resource's capacity as last reported.</summary>
    public int Capacity => Volatile.Read(ref _capacity);

    /// <summary>Creates a factory under the name <see cref="SubtaskSchedulerNames.CakeShares"/>.</summary>
    /// <param name="options">Initial shares and reservations; defaults when <see langword="null"/>.</param>
    /// <returns>The factory.</returns>
    public static SubtaskSchedulerFactory CreateFactory(CakeShareOptions? options = null)
    {
        options ??= new CakeShareOptions();
        options.Validate();
        return new DelegateSchedulerFactory(SubtaskSchedulerNames.CakeShares, context => new CakeShareScheduler(options, context.Registry));
    }

    /// <summary>Gets a workflow's proportional share.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The share.</returns>
    public double GetShare(WorkflowSlot workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        var share = Volatile.Read(ref _shares[workflow.Index]);
        return share > 0 ? share : _options.DefaultShare;
    }

    /// <summary>Sets a workflow's proportional share.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="share">A positive share.</param>
    public void SetShare(WorkflowSlot workflow, double share)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        if (!(share > 0) || !double.IsFinite(share))
        {
            throw new ArgumentOutOfRangeException(nameof(share), share, "A share must be a positive number.");
        }

        Volatile.Write(ref _shares[workflow.Index], share);
    }

    /// <summary>Gets the permits reserved for a workflow.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The reservation.</returns>
    public int GetReservation(WorkflowSlot workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        return Volatile.Read(ref _reservations[workflow.Index]);
    }

    /// <summary>Sets the permits reserved for a workflow, unless that would leave no shared permit.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="permits">The reservation, at least 0.</param>
    /// <returns><see langword="false"/> if the reservations would take the last shared permit.</returns>
    public bool TrySetReservation(WorkflowSlot workflow, int permits)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        ArgumentOutOfRangeException.ThrowIfNegative(permits);
        lock (_settingsLock)
        {
            var total = _totalReserved - _reservations[workflow.Index] + permits;
            if (total >= Capacity)
            {
                return false;
            }

            Volatile.Write(ref _reservations[workflow.Index], permits);
            Volatile.Write(ref _totalReserved, total);
            return true;
        }
    }

    /// <inheritdoc />
    void ISubtaskScheduler.OnCapacityChanged(int capacity) => Volatile.Write(ref _capacity, capacity);

    /// <inheritdoc />
    bool ISubtaskScheduler.TryStartImmediately(WorkflowSlot workflow, double cost)
    {
        var flow = FlowOf(workflow.Index);
        if (!MayStart(workflow.Index, flow))
        {
            return false;
        }

        Start(workflow.Index, flow, cost);
        return true;
    }

    /// <inheritdoc />
    void ISubtaskScheduler.Enqueue(in SubtaskTicket ticket)
    {
        var flow = FlowOf(ticket.Workflow.Index);
        if (flow.Queue.Count == 0)
        {
            // Back from idle: start at the current virtual time, so being idle earns no credit.
            flow.Pass = Math.Max(flow.Pass, _virtualTime);
        }

        flow.Queue.Enqueue(ticket);
        _count++;
    }

    /// <inheritdoc />
    bool ISubtaskScheduler.TryDequeue(long now, out SubtaskTicket ticket)
    {
        var chosen = -1;
        var chosenReserved = false;
        for (var i = 0; i < _flows.Length && i < Registry.Count; i++)
        {
            var flow = _flows[i];
            if (flow is null || flow.Queue.Count == 0 || !MayStart(i, flow))
            {
                continue;
            }

            var reserved = flow.InFlight < Volatile.Read(ref _reservations[i]);
            if (chosen < 0 || (reserved && !chosenReserved) || (reserved == chosenReserved && flow.Pass < _flows[chosen]!.Pass))
            {
                chosen = i;
                chosenReserved = reserved;
            }
        }

        if (chosen < 0)
        {
            ticket = default;
            return false;
        }

        var winner = _flows[chosen]!;
        winner.Queue.TryDequeue(out ticket);
        _count--;
        Start(chosen, winner, ticket.Cost);
        return true;
    }

    /// <inheritdoc />
    bool ISubtaskScheduler.TryRemove(in SubtaskTicket ticket)
    {
        var flow = _flows[ticket.Workflow.Index];
        if (flow is null || !flow.Queue.TryRemove(ticket.Id))
        {
            return false;
        }

        _count--;
        return true;
    }

    /// <inheritdoc />
    void ISubtaskScheduler.OnCompleted(in SubtaskCompletion completion)
    {
        var index = completion.Workflow.Index;
        var flow = FlowOf(index);
        if (flow.InFlight > 0 && --flow.InFlight == 0)
        {
            for (var i = 0; i < _busy.Count; i++)
            {
                if (_busy[i] == index)
                {
                    _busy.RemoveAt(i);
                    break;
                }
            }
        }

        if (_options.CostSource == SubtaskCostSource.MeasuredServiceTime)
        {
            flow.LastServiceSeconds = completion.ServiceTime.TotalSeconds;
        }
    }

    private bool MayStart(int index, Flow flow)
    {
        if (flow.InFlight < Volatile.Read(ref _reservations[index]))
        {
            return true;
        }

        // Otherwise it needs a shared permit: capacity − Σ reservations, minus permits held beyond reservations.
        // At least one permit stays shared, even if capacity shrank below the reservations, so no workflow starves.
        var shared = Math.Max(1, Capacity - Volatile.Read(ref _totalReserved));
        var used = 0;
        for (var i = 0; i < _busy.Count; i++)
        {
            var busy = _busy[i];
            used += Math.Max(0, _flows[busy]!.InFlight - Volatile.Read(ref _reservations[busy]));
        }

        return used < shared;
    }

    private void Start(int index, Flow flow, double declaredCost)
    {
        var cost = _options.CostSource == SubtaskCostSource.Declared ? declaredCost : flow.LastServiceSeconds;
        flow.Pass = Math.Max(flow.Pass, _virtualTime);
        _virtualTime = flow.Pass;
        flow.Pass += Math.Max(cost, 1e-9) / GetShare(Registry[index]);
        if (flow.InFlight++ == 0)
        {
            _busy.Add(index);
        }
    }

    private Flow FlowOf(int index) => _flows[index] ??= new Flow();

    private sealed class Flow
    {
        public SubtaskBacklog Queue { get; } = new(4);

        public double Pass { get; set; }

        public int InFlight { get; set; }

        public double LastServiceSeconds { get; set; } = 1;
    }
}
