// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Earliest deadline first (Algorithm 5's EDF-PRIORITY, δ − elapsed): serves the sub-task whose request's deadline is
/// nearest. Sub-tasks without a deadline come last, in arrival order.
/// </summary>
/// <remarks>
/// δ − elapsed shrinks at the same pace for every waiter, so ordering by the absolute deadline (start + δ) gives the
/// same order at any instant and needs no re-sorting.
/// </remarks>
public sealed class EarliestDeadlineFirstScheduler : PriorityOrderedScheduler
{
    /// <summary>Gets a factory under the name <see cref="SubtaskSchedulerNames.EarliestDeadlineFirst"/>.</summary>
    public static SubtaskSchedulerFactory Factory { get; } =
        new DelegateSchedulerFactory(SubtaskSchedulerNames.EarliestDeadlineFirst, _ => new EarliestDeadlineFirstScheduler());

    /// <inheritdoc />
    protected override double GetPriority(in SubtaskTicket ticket) =>
        ticket.DeadlineTimestamp == long.MaxValue ? double.PositiveInfinity : ticket.DeadlineTimestamp;
}
