// SPDX-License-Identifier: Apache-2.0

using Cicero.Measurement;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Deficit round robin across workflows (Shreedhar and Varghese, as used in dissertation section 5.2.5): each
/// workflow with waiting sub-tasks gets credit in proportion to its weight every round, and spends it on the expected
/// cost of its sub-tasks. Over time each busy workflow's served cost follows its weight; a workflow that goes idle
/// keeps no credit.
/// </summary>
/// <remarks>
/// O(1) per operation when the quantum covers the largest cost (the default); removal of a cancelled waiter is O(n)
/// in its workflow's queue. No allocation once per-workflow queues have grown. Single-threaded by contract, except
/// <see cref="SetWeight"/>, which may be called from a control thread and applies from the next round.
/// </remarks>
public sealed class DeficitRoundRobinScheduler : ISubtaskScheduler
{
    private readonly DeficitRoundRobinOptions _options;
    private readonly FlowState?[] _flows;
    private readonly double[] _weights;
    // The round's order of flows with work. A list, not a ring: rotating the front to the back shifts the few active
    // flows (one per workflow with waiting work), and no other collection of the BCL removes from the middle in order.
    private readonly List<int> _active = [];
    private double _largestCost;
    private double _measuredTotal;
    private long _measuredCount;
    private int _count;

    /// <summary>Creates the scheduler.</summary>
    /// <param name="options">Weights, quantum and cost source.</param>
    /// <param name="registry">The resource's workflow registry; state is kept per slot.</param>
    public DeficitRoundRobinScheduler(DeficitRoundRobinOptions options, WorkflowRegistry registry)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(registry);
        options.Validate();
        _options = options;
        _flows = new FlowState?[registry.SlotCapacity];
        _weights = new double[registry.SlotCapacity];
    }

    /// <inheritdoc />
    public int Count => _count;

    /// <summary>Creates a factory under the name <see cref="SubtaskSchedulerNames.DeficitRoundRobin"/>.</summary>
    /// <param name="options">Weights and costs; defaults when <see langword="null"/>.</param>
    /// <returns>The factory.</returns>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public static SubtaskSchedulerFactory CreateFactory(DeficitRoundRobinOptions? options = null)
    {
        options ??= new DeficitRoundRobinOptions();
        options.Validate();
        return new DelegateSchedulerFactory(SubtaskSchedulerNames.DeficitRoundRobin, context => new DeficitRoundRobinScheduler(options, context.Registry));
    }

    /// <summary>Sets a workflow's weight, for example from a bottleneck-fairness allocation.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="weight">A positive weight.</param>
    public void SetWeight(WorkflowSlot workflow, double weight)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        if (!(weight > 0) || !double.IsFinite(weight))
        {
            throw new ArgumentOutOfRangeException(nameof(weight), weight, "A weight must be a positive number.");
        }

        Volatile.Write(ref _weights[workflow.Index], weight);
    }

    /// <inheritdoc />
    public void Enqueue(in SubtaskTicket ticket)
    {
        var index = ticket.Workflow.Index;
        var flow = _flows[index] ??= new FlowState();
        if (flow.ConfiguredWeight == 0)
        {
            flow.ConfiguredWeight = _options.Weights.TryGetValue(ticket.Workflow.Id.Value, out var weight) ? weight : _options.DefaultWeight;
        }

        flow.Queue.Enqueue(ticket);
        _largestCost = Math.Max(_largestCost, CostOf(ticket, flow));
        if (!flow.Active)
        {
            flow.Active = true;
            flow.Deficit = 0;
            flow.InTurn = false;
            _active.Add(index);
        }

        _count++;
    }

    /// <inheritdoc />
    public bool TryDequeue(long now, out SubtaskTicket ticket)
    {
        while (_active.Count > 0)
        {
            var index = _active[0];
            var flow = _flows[index]!;
            flow.Queue.TryPeek(out var head);
            var cost = CostOf(head, flow);
            if (!flow.InTurn)
            {
                flow.InTurn = true;
                var credit = Quantum * WeightOf(index, flow);
                // Alone in the ring, a flow whose head needs many rounds of credit would spin here: give it those rounds at once.
                var rounds = _active.Count == 1 && cost > flow.Deficit + credit ? Math.Ceiling((cost - flow.Deficit) / credit) : 1;
                flow.Deficit += credit * rounds;
            }

            if (cost <= flow.Deficit)
            {
                flow.Queue.TryDequeue(out ticket);
                flow.Deficit -= cost;
                _count--;
                if (flow.Queue.Count == 0)
                {
                    Deactivate(flow);
                    _active.RemoveAt(0);
                }

                return true;
            }

            // Not enough credit for the head: the turn ends and the workflow keeps its deficit for the next round.
            flow.InTurn = false;
            _active.RemoveAt(0);
            _active.Add(index);
        }

        ticket = default;
        return false;
    }

    /// <inheritdoc />
    public bool TryRemove(in SubtaskTicket ticket)
    {
        var flow = _flows[ticket.Workflow.Index];
        if (flow is null || !flow.Queue.TryRemove(ticket.Id))
        {
            return false;
        }

        _count--;
        if (flow.Queue.Count == 0)
        {
            Deactivate(flow);
            RemoveActive(ticket.Workflow.Index);
        }

        return true;
    }

    /// <inheritdoc />
    public void OnCompleted(in SubtaskCompletion completion)
    {
        var seconds = completion.ServiceTime.TotalSeconds;
        var flow = _flows[completion.Workflow.Index] ??= new FlowState();
        flow.ServiceTime.Update(seconds);
        _measuredTotal += seconds;
        _measuredCount++;
    }

    private double Quantum => _options.Quantum ?? Math.Max(_largestCost, double.Epsilon);

    private double WeightOf(int index, FlowState flow)
    {
        var weight = Volatile.Read(ref _weights[index]);
        return weight > 0 ? weight : flow.ConfiguredWeight;
    }

    private double CostOf(in SubtaskTicket ticket, FlowState flow)
    {
        if (_options.CostSource == SubtaskCostSource.Declared)
        {
            return ticket.Cost;
        }

        // The local model's estimate: this workflow's average service time here, else the resource's average.
        return flow.ServiceTime.HasValue ? flow.ServiceTime.Value
            : _measuredCount > 0 ? _measuredTotal / _measuredCount
            : 1;
    }

    private void RemoveActive(int index)
    {
        for (var i = 0; i < _active.Count; i++)
        {
            if (_active[i] == index)
            {
                _active.RemoveAt(i);
                return;
            }
        }
    }

    private static void Deactivate(FlowState flow)
    {
        flow.Active = false;
        flow.InTurn = false;
        flow.Deficit = 0;
    }

    private sealed class FlowState
    {
        public SubtaskBacklog Queue { get; } = new(4);

        public bool Active { get; set; }

        public bool InTurn { get; set; }

        public double Deficit { get; set; }

        public double ConfiguredWeight { get; set; }

        // A mutable struct updated in place, so a field rather than a property.
        public Ewma ServiceTime = new(0.1);
    }
}
