// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// A base for schedulers that serve the waiting sub-task with the lowest priority value first (dissertation
/// Algorithm 5), ties broken by arrival order. The priority is computed once, when the sub-task is queued.
/// </summary>
/// <remarks>
/// A binary heap: O(log n) to queue and to take, O(n) to remove a cancelled waiter, no allocation once the heap has
/// grown. Single-threaded by contract, like every <see cref="ISubtaskScheduler"/>.
/// </remarks>
public abstract class PriorityOrderedScheduler : ISubtaskScheduler
{
    private readonly PriorityQueue<SubtaskTicket, Key> _heap = new();

    /// <inheritdoc />
    public int Count => _heap.Count;

    /// <inheritdoc />
    public void Enqueue(in SubtaskTicket ticket)
    {
        var priority = GetPriority(ticket);
        _heap.Enqueue(ticket, new Key(double.IsNaN(priority) ? double.PositiveInfinity : priority, ticket.Id));
    }

    /// <inheritdoc />
    public bool TryDequeue(long now, out SubtaskTicket ticket) => _heap.TryDequeue(out ticket, out _);

    /// <inheritdoc />
    public bool TryRemove(in SubtaskTicket ticket) => _heap.Remove(ticket, out _, out _, TicketIdComparer.Instance);

    /// <inheritdoc />
    public virtual void OnCompleted(in SubtaskCompletion completion)
    {
    }

    /// <summary>Computes a queued sub-task's priority; lower runs first. NaN counts as +∞.</summary>
    /// <param name="ticket">The sub-task.</param>
    /// <returns>The priority value.</returns>
    protected abstract double GetPriority(in SubtaskTicket ticket);

    private readonly record struct Key(double Priority, long Id) : IComparable<Key>
    {
        public int CompareTo(Key other)
        {
            var byPriority = Priority.CompareTo(other.Priority);
            return byPriority != 0 ? byPriority : Id.CompareTo(other.Id);
        }
    }

    private sealed class TicketIdComparer : IEqualityComparer<SubtaskTicket>
    {
        public static readonly TicketIdComparer Instance = new();

        public bool Equals(SubtaskTicket x, SubtaskTicket y) => x.Id == y.Id;

        public int GetHashCode(SubtaskTicket obj) => obj.Id.GetHashCode();
    }
}
