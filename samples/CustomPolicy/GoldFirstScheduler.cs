// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace CustomPolicy;

/// <summary>
/// Serves the gold workflows first and, within a class, the earliest deadline: a two-part key, compared part by part.
/// </summary>
public sealed class GoldFirstScheduler(IReadOnlySet<string> gold) : KeyOrderedScheduler<(int Class, long Deadline)>
{
    /// <summary>The name it is configured by.</summary>
    public const string Name = "gold-first";

    /// <summary>Creates the factory that registers it by <see cref="Name"/>.</summary>
    /// <param name="gold">The gold workflows.</param>
    /// <returns>The factory.</returns>
    public static SubtaskSchedulerFactory CreateFactory(IReadOnlySet<string> gold) =>
        new DelegateSchedulerFactory(Name, _ => new GoldFirstScheduler(gold));

    /// <inheritdoc />
    protected override (int Class, long Deadline) GetKey(in SubtaskTicket ticket) =>
        (gold.Contains(ticket.Workflow.Id.Value) ? 0 : 1, ticket.DeadlineTimestamp);
}
