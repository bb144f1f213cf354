// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// A base for schedulers that serve the waiting sub-task with the smallest key first, ties broken by arrival order.
/// The key is any comparable value, so multi-part orderings need no float tricks: a tuple such as
/// <c>(int Class, long DeadlineTimestamp)</c> compares part by part (class first, then deadline).
/// </summary>
/// <typeparam name="TKey">The ordering key; compared with <see cref="Comparer{T}.Default"/>, so value tuples of comparable parts work without boxing.</typeparam>
/// <remarks>
/// The key is computed once, when the sub-task is queued. A binary heap: O(log n) to queue and to take, O(n) to remove
/// a cancelled waiter, no allocation once the heap has grown (for a value-type key). Single-threaded by contract, like
/// every <see cref="ISubtaskScheduler"/>.
/// </remarks>
public abstract class KeyOrderedScheduler<TKey> : ISubtaskScheduler
{
    private readonly PriorityQueue<SubtaskTicket, Entry> _heap = new();

    /// <inheritdoc />
    int ISubtaskScheduler.Count => _heap.Count;

    /// <inheritdoc />
    void ISubtaskScheduler.Enqueue(in SubtaskTicket ticket) => _heap.Enqueue(ticket, new Entry(GetKey(ticket), ticket.Id));

    /// <inheritdoc />
    bool ISubtaskScheduler.TryDequeue(long now, out SubtaskTicket ticket) => _heap.TryDequeue(out ticket, out _);

    /// <inheritdoc />
    bool ISubtaskScheduler.TryRemove(in SubtaskTicket ticket) => _heap.Remove(ticket, out _, out _, TicketIdComparer.Instance);

    /// <inheritdoc />
    public virtual void OnCompleted(in SubtaskCompletion completion)
    {
    }

    /// <summary>Computes a queued sub-task's key; the smallest runs first.</summary>
    /// <param name="ticket">The sub-task.</param>
    /// <returns>The key.</returns>
    protected abstract TKey GetKey(in SubtaskTicket ticket);

    private readonly record struct Entry(TKey Key, long Id) : IComparable<Entry>
    {
        public int CompareTo(Entry other)
        {
            var byKey = Comparer<TKey>.Default.Compare(Key, other.Key);
            return byKey != 0 ? byKey : Id.CompareTo(other.Id);
        }
    }

    private sealed class TicketIdComparer : IEqualityComparer<SubtaskTicket>
    {
        public static readonly TicketIdComparer Instance = new();

        public bool Equals(SubtaskTicket x, SubtaskTicket y) => x.Id == y.Id;

        public int GetHashCode(SubtaskTicket obj) => obj.Id.GetHashCode();
    }
}
