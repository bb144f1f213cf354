// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Least slack time first (Algorithm 5's LSTF-PRIORITY): slack = δ − (elapsed + st_remaining), with
/// st_remaining = st_total − st_elapsed from the request's progress metrics. Serves the least slack first; without a
/// deadline a sub-task comes last. Where no end-to-end estimate is known, st_remaining is 0 and LSTF acts as EDF.
/// </summary>
/// <param name="timestampFrequency">Timestamps per second of the resource's clock.</param>
public sealed class LeastSlackTimeFirstScheduler(long timestampFrequency) : PriorityOrderedScheduler
{
    private readonly double _frequency = timestampFrequency > 0
        ? timestampFrequency
        : throw new ArgumentOutOfRangeException(nameof(timestampFrequency), timestampFrequency, "Must be positive.");

    /// <summary>Gets a factory under the name <see cref="SubtaskSchedulerNames.LeastSlackTimeFirst"/>.</summary>
    public static SubtaskSchedulerFactory Factory { get; } =
        new DelegateSchedulerFactory(SubtaskSchedulerNames.LeastSlackTimeFirst, context => new LeastSlackTimeFirstScheduler(context.TimestampFrequency));

    /// <inheritdoc />
    protected override double GetPriority(in SubtaskTicket ticket)
    {
        if (ticket.DeadlineTimestamp == long.MaxValue)
        {
            return double.PositiveInfinity;
        }

        // (start + δ) − st_remaining: subtracting the same "now" from every waiter's slack does not change the order.
        return ticket.DeadlineTimestamp - (ticket.Context.RemainingServiceTime * _frequency);
    }
}
