// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>Decides which waiting sub-task gets the next permit of a <see cref="ResourceSemaphore"/>.</summary>
/// <remarks>
/// Single-threaded by contract: the resource calls every member under its own lock, and passes the current timestamp
/// of its clock, so an implementation needs no locking, reads no clock and does no I/O. That is what lets the live
/// runtime and the simulator share scheduler code. Every enqueued ticket must come out exactly once, through
/// <see cref="TryDequeue"/> or <see cref="TryRemove"/>.
/// </remarks>
public interface ISubtaskScheduler
{
    /// <summary>Gets the number of waiting tickets.</summary>
    int Count { get; }

    /// <summary>Adds a waiting sub-task.</summary>
    /// <param name="ticket">The sub-task.</param>
    void Enqueue(in SubtaskTicket ticket);

    /// <summary>Takes the sub-task that should run next.</summary>
    /// <param name="now">The current timestamp of the resource's clock.</param>
    /// <param name="ticket">The chosen sub-task.</param>
    /// <returns><see langword="false"/> when no ticket should run now (normally only when empty).</returns>
    bool TryDequeue(long now, out SubtaskTicket ticket);

    /// <summary>Removes a waiting sub-task whose caller gave up (cancellation).</summary>
    /// <param name="ticket">The ticket, matched by <see cref="SubtaskTicket.Id"/>.</param>
    /// <returns><see langword="true"/> if it was waiting and is now removed.</returns>
    bool TryRemove(in SubtaskTicket ticket);

    /// <summary>Reports a sub-task that released its permit, for schedulers that account for service used.</summary>
    /// <param name="completion">What ran and for how long.</param>
    void OnCompleted(in SubtaskCompletion completion);

    /// <summary>
    /// Asks whether a sub-task may take a free permit without queueing (the queue is empty and a permit is free).
    /// Schedulers that account for permits in use (reservations) count it as started when they return
    /// <see langword="true"/>; returning <see langword="false"/> makes it wait in the queue like any other.
    /// </summary>
    /// <param name="workflow">The sub-task's workflow.</param>
    /// <param name="cost">Its expected cost.</param>
    /// <returns><see langword="true"/> (the default) to let it start now.</returns>
    bool TryStartImmediately(WorkflowSlot workflow, double cost) => true;

    /// <summary>Reports the resource's capacity, at creation and whenever it is reconfigured.</summary>
    /// <param name="capacity">The number of permits.</param>
    void OnCapacityChanged(int capacity)
    {
    }
}
