// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>A sub-task waiting for a permit of a <see cref="ResourceSemaphore"/>, as a scheduler sees it.</summary>
public readonly struct SubtaskTicket
{
    /// <summary>Gets the ticket's number; unique per resource and increasing in arrival order.</summary>
    public long Id { get; init; }

    /// <summary>Gets the workflow the sub-task belongs to.</summary>
    public required WorkflowSlot Workflow { get; init; }

    /// <summary>Gets the request's context: deadline, start time and progress metrics.</summary>
    public required RequestContext Context { get; init; }

    /// <summary>Gets the expected cost of the sub-task, in the resource's units (default 1).</summary>
    public double Cost { get; init; }

    /// <summary>Gets the sub-task type, for per-type service-time estimates; 0 when not set.</summary>
    public int SubtaskType { get; init; }

    /// <summary>Gets when the sub-task was queued, as a timestamp of the resource's clock.</summary>
    public long EnqueuedAt { get; init; }

    /// <summary>Gets the request's deadline as a timestamp of the resource's clock, or <see cref="long.MaxValue"/>.</summary>
    public long DeadlineTimestamp { get; init; }

    internal object? Waiter { get; init; }
}
