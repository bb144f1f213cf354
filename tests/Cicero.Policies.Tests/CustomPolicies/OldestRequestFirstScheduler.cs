// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.CustomPolicies;

/// <summary>
/// A custom scheduler for docs/custom-policies.md: serves the sub-task whose request started earliest end to end,
/// whatever hop it is at, so requests that have travelled far are finished first.
/// </summary>
public sealed class OldestRequestFirstScheduler : PriorityOrderedScheduler
{
    public static SubtaskSchedulerFactory Factory { get; } =
        new DelegateSchedulerFactory("oldest-first", _ => new OldestRequestFirstScheduler());

    protected override double GetPriority(in SubtaskTicket ticket) => ticket.Context.StartTimestamp;
}
