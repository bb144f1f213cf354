// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Shortest job first: serves the request whose estimated total work θ_total is smallest (Table 5.3 names θ_total for
/// SJF). Requests of workflows without an estimate yet come last.
/// </summary>
public sealed class ShortestJobFirstScheduler : PriorityOrderedScheduler
{
    /// <summary>Gets a factory under the name <see cref="SubtaskSchedulerNames.ShortestJobFirst"/>.</summary>
    public static SubtaskSchedulerFactory Factory { get; } =
        new DelegateSchedulerFactory(SubtaskSchedulerNames.ShortestJobFirst, _ => new ShortestJobFirstScheduler());

    /// <inheritdoc />
    protected override double GetPriority(in SubtaskTicket ticket) =>
        ticket.Context.EstimatedTotal.Load > 0 ? ticket.Context.EstimatedTotal.Load : double.PositiveInfinity;
}
