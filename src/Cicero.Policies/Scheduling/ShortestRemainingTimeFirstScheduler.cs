// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Shortest remaining time first (Algorithm 5's SRTF-PRIORITY, st_total − st_elapsed): serves the request with the
/// least estimated service time left end to end. Requests of workflows without an estimate yet come last.
/// </summary>
public sealed class ShortestRemainingTimeFirstScheduler : PriorityOrderedScheduler
{
    /// <summary>Gets a factory under the name <see cref="SubtaskSchedulerNames.ShortestRemainingTimeFirst"/>.</summary>
    public static SubtaskSchedulerFactory Factory { get; } =
        new DelegateSchedulerFactory(SubtaskSchedulerNames.ShortestRemainingTimeFirst, _ => new ShortestRemainingTimeFirstScheduler());

    /// <inheritdoc />
    protected override double GetPriority(in SubtaskTicket ticket) =>
        ticket.Context.EstimatedTotal.ServiceTime > 0 ? ticket.Context.RemainingServiceTime : double.PositiveInfinity;
}
