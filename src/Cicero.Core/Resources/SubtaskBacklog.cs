// SPDX-License-Identifier: Apache-2.0

using Cicero.Internal;

namespace Cicero.Resources;

/// <summary>
/// The backlog of a resource's waiting sub-tasks in first-in first-out order, with removal by ticket id: the building block of Cicero's own
/// schedulers (FIFO, and one per flow in DRR and Cake's shares), public so a custom <see cref="ISubtaskScheduler"/>
/// can use the same. A growable ring buffer: no allocation once it has grown to the largest backlog.
/// </summary>
/// <remarks>Not thread-safe; a scheduler is called under its resource's lock.</remarks>
public sealed class SubtaskBacklog
{
    private readonly Deque<SubtaskTicket> _items;

    /// <summary>Creates an empty queue.</summary>
    /// <param name="initialCapacity">The room reserved before the first growth (at least 4).</param>
    public SubtaskBacklog(int initialCapacity = 16)
    {
        _items = new Deque<SubtaskTicket>(initialCapacity);
    }

    /// <summary>Gets the number of waiting sub-tasks.</summary>
    public int Count => _items.Count;

    /// <summary>Adds a sub-task at the back.</summary>
    /// <param name="ticket">The sub-task.</param>
    public void Enqueue(in SubtaskTicket ticket) => _items.PushBack(ticket);

    /// <summary>Reads the sub-task at the front without taking it.</summary>
    /// <param name="ticket">The front sub-task, if any.</param>
    /// <returns><see langword="true"/> if the queue was not empty.</returns>
    public bool TryPeek(out SubtaskTicket ticket) => _items.TryPeekFront(out ticket);

    /// <summary>Takes the sub-task at the front.</summary>
    /// <param name="ticket">The front sub-task, if any.</param>
    /// <returns><see langword="true"/> if the queue was not empty.</returns>
    public bool TryDequeue(out SubtaskTicket ticket) => _items.TryPopFront(out ticket);

    /// <summary>Removes the sub-task with ticket id <paramref name="id"/>, keeping the order of the rest; O(n).</summary>
    /// <param name="id">The ticket id (<see cref="SubtaskTicket.Id"/>).</param>
    /// <returns><see langword="true"/> if it was waiting here.</returns>
    public bool TryRemove(long id)
    {
        for (var i = 0; i < _items.Count; i++)
        {
            if (_items[i].Id == id)
            {
                _items.RemoveAt(i);
                return true;
            }
        }

        return false;
    }
}
