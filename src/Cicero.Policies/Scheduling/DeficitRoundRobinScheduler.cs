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
/// <para>
/// Costs and the default quantum come from what is known now, so the scheduler isolates from a cold start: before
/// anything has been measured every sub-task costs one unit and the quantum is one unit (round robin by count); after
/// that a workflow's cost is its own average service time here, a workflow not yet measured costs the resource's
/// recent average, and the quantum is that recent average, so a turn is about one typical sub-task. A sub-task refused
/// at the head of the queue (reported with no service time) is no measurement. A quantum that kept the largest cost
/// ever seen (the 1 s placeholder before the first completion) let a flooding workflow start a second's worth of
/// millisecond sub-tasks per turn while another workflow's one sub-task waited.
/// </para>
/// <para>
/// O(1) per operation when the quantum covers the head's cost; a head costing k quanta waits k rounds, as in DRR, and
/// rounds in which no head could be served are granted at once (O(workflows waiting)) rather than spun through. Removal of a cancelled waiter is O(n) in its workflow's queue. No allocation once per-workflow queues have grown.
/// Single-threaded by contract, except <see cref="SetWeight"/>, which may be called from a control thread and applies
/// from the next round.
/// </para>
/// </remarks>
public sealed class DeficitRoundRobinScheduler : ISubtaskScheduler
{
    // A new sample's weight in the resource's average cost: it follows about the last 20 sub-tasks.
    private const double AverageWeight = 0.1;

    // The cost of every sub-task while nothing is known here: all equal, and with a quantum of one unit, round robin.
    private const double UnknownCost = 1;

    private readonly DeficitRoundRobinOptions _options;
    private readonly FlowState?[] _flows;
    private readonly double[] _weights;
    // The round's order of flows with work. A list, not a ring: rotating the front to the back shifts the few active
    // flows (one per workflow with waiting work), and no other collection of the BCL removes from the middle in order.
    private readonly List<int> _active = [];
    // The resource's recent average cost: of measured service times, or of declared costs as they are enqueued.
    private Ewma _averageCost = new(AverageWeight);
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
    int ISubtaskScheduler.Count => _count;

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
    void ISubtaskScheduler.Enqueue(in SubtaskTicket ticket)
    {
        var index = ticket.Workflow.Index;
        var flow = _flows[index] ??= new FlowState();
        if (flow.ConfiguredWeight == 0)
        {
            flow.ConfiguredWeight = _options.Weights.TryGetValue(ticket.Workflow.Id.Value, out var weight) ? weight : _options.DefaultWeight;
        }

        flow.Queue.Enqueue(ticket);
        if (_options.CostSource == SubtaskCostSource.Declared)
        {
            _averageCost.Update(ticket.Cost);
        }

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
    bool ISubtaskScheduler.TryDequeue(long now, out SubtaskTicket ticket)
    {
        var turnsWithoutService = 0;
        while (_active.Count > 0)
        {
            if (turnsWithoutService == _active.Count)
            {
                // A whole round served nothing: every head costs more than a quantum (the quantum is the average cost).
                // Give everyone at once the empty rounds the cheapest head still needs, rather than spinning through them.
                SkipEmptyRounds();
                turnsWithoutService = 0;
            }

            var index = _active[0];
            var flow = _flows[index]!;
            flow.Queue.TryPeek(out var head);
            var cost = CostOf(head, flow);
            if (!flow.InTurn)
            {
                flow.InTurn = true;
                // DRR's invariant is that a turn ends with less credit than the head costs; when estimates fall, credit
                // earned under the old ones must not buy a burst under the new.
                flow.Deficit = Math.Min(flow.Deficit, cost);
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
            turnsWithoutService++;
        }

        ticket = default;
        return false;
    }

    private void SkipEmptyRounds()
    {
        var rounds = double.PositiveInfinity;
        foreach (var index in _active)
        {
            var flow = _flows[index]!;
            flow.Queue.TryPeek(out var head);
            rounds = Math.Min(rounds, Math.Ceiling((CostOf(head, flow) - flow.Deficit) / (Quantum * WeightOf(index, flow))) - 1);
        }

        if (rounds > 0)
        {
            foreach (var index in _active)
            {
                var flow = _flows[index]!;
                flow.Deficit += rounds * Quantum * WeightOf(index, flow);
            }
        }
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
        if (flow.Queue.Count == 0)
        {
            Deactivate(flow);
            RemoveActive(ticket.Workflow.Index);
        }

        return true;
    }

    /// <inheritdoc />
    void ISubtaskScheduler.OnCompleted(in SubtaskCompletion completion)
    {
        var seconds = completion.ServiceTime.TotalSeconds;
        if (!(seconds > 0))
        {
            // A sub-task refused at the head of the queue (its deadline could not be met) is reported as taking no
            // time; it measured nothing. Averaged in, a tenant whose work expires en masse would look free and take
            // every turn.
            return;
        }

        var flow = _flows[completion.Workflow.Index] ??= new FlowState();
        flow.ServiceTime.Update(seconds);
        if (_options.CostSource == SubtaskCostSource.MeasuredServiceTime)
        {
            _averageCost.Update(seconds);
        }
    }

    private double Quantum => _options.Quantum ?? (_averageCost.HasValue ? Math.Max(_averageCost.Value, double.Epsilon) : UnknownCost);

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

        // The local model's estimate: this workflow's average service time here, else the resource's recent average,
        // else (nothing measured yet) the same for everyone.
        return flow.ServiceTime.HasValue ? flow.ServiceTime.Value
            : _averageCost.HasValue ? _averageCost.Value
            : UnknownCost;
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
