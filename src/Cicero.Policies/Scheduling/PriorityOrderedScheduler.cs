// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// A base for schedulers that serve the waiting sub-task with the lowest priority value first (dissertation
/// Algorithm 5), ties broken by arrival order. The priority is computed once, when the sub-task is queued.
/// </summary>
/// <remarks>
/// A <see cref="KeyOrderedScheduler{TKey}"/> over one <see langword="double"/>. For an ordering by several keys (a
/// class, then a deadline) derive from <see cref="KeyOrderedScheduler{TKey}"/> with a tuple key instead of packing the
/// keys into one number. Single-threaded by contract, like every <see cref="ISubtaskScheduler"/>.
/// </remarks>
public abstract class PriorityOrderedScheduler : KeyOrderedScheduler<double>
{
    /// <summary>Computes a queued sub-task's priority; lower runs first. NaN counts as +∞.</summary>
    /// <param name="ticket">The sub-task.</param>
    /// <returns>The priority value.</returns>
    protected abstract double GetPriority(in SubtaskTicket ticket);

    /// <inheritdoc />
    protected sealed override double GetKey(in SubtaskTicket ticket)
    {
        var priority = GetPriority(ticket);
        return double.IsNaN(priority) ? double.PositiveInfinity : priority;
    }
}
