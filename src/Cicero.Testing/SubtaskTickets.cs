// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Resources;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Testing;

/// <summary>
/// Builds requests and sub-task tickets on a <see cref="VirtualTimeProvider"/>, the way a <see cref="ResourceSemaphore"/>
/// stamps them, for testing a scheduler without a resource: ids increase, the workflow is resolved in the registry,
/// and the deadline timestamp is computed from the context.
/// </summary>
/// <param name="registry">The registry the workflows are resolved in.</param>
/// <param name="clock">The clock the requests start on and the tickets are enqueued at.</param>
public sealed class SubtaskTickets(WorkflowRegistry registry, VirtualTimeProvider clock)
{
    private readonly WorkflowRegistry _registry = registry ?? throw new ArgumentNullException(nameof(registry));
    private readonly VirtualTimeProvider _clock = clock ?? throw new ArgumentNullException(nameof(clock));
    private long _nextId;

    /// <summary>Creates a request that starts now on the clock.</summary>
    /// <param name="workflow">The workflow id.</param>
    /// <param name="deadline">The end-to-end deadline δ, if any.</param>
    /// <param name="elapsedServiceTime">Service time already accrued before this hop, in seconds (also used as the load).</param>
    /// <param name="estimate">The estimated end-to-end totals T.</param>
    /// <returns>The request context.</returns>
    public RequestContext Context(string workflow, TimeSpan? deadline = null, double elapsedServiceTime = 0, ProgressDelta estimate = default) =>
        RequestContext.Create(workflow, _clock.GetTimestamp(), deadline, new ProgressDelta(elapsedServiceTime, elapsedServiceTime), default, estimate);

    /// <summary>Creates the ticket of a sub-task of <paramref name="context"/>, enqueued now.</summary>
    /// <param name="context">The request.</param>
    /// <param name="cost">The sub-task's declared cost.</param>
    /// <param name="subtaskType">The sub-task type.</param>
    /// <returns>The ticket, with the next id.</returns>
    public SubtaskTicket Ticket(RequestContext context, double cost = 1, int subtaskType = 0)
    {
        ArgumentNullException.ThrowIfNull(context);
        return new SubtaskTicket
        {
            Id = ++_nextId,
            Workflow = _registry.Resolve(context),
            Context = context,
            Cost = cost,
            SubtaskType = subtaskType,
            EnqueuedAt = _clock.GetTimestamp(),
            DeadlineTimestamp = context.GetDeadlineTimestamp(_clock.TimestampFrequency),
        };
    }
}
