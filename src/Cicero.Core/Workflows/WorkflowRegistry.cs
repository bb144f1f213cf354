// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;

namespace Cicero.Workflows;

/// <summary>
/// The bounded set of workflows a process tracks. Ids beyond the bound fold into one overflow workflow, so a flood of
/// distinct ids cannot grow memory or metric cardinality.
/// </summary>
/// <remarks>Thread-safe. Lookups of known ids take no lock.</remarks>
public sealed class WorkflowRegistry
{
    /// <summary>The id of the workflow that ids beyond the bound fold into.</summary>
    public const string OverflowWorkflowName = "cicero.overflow";

    /// <summary>The default bound on tracked workflows.</summary>
    public const int DefaultMaxWorkflows = 1024;

    private readonly ConcurrentDictionary<string, WorkflowSlot> _byId = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, WorkflowSlot>.AlternateLookup<ReadOnlySpan<char>> _bySpan;
    private readonly WorkflowSlot[] _slots;
    private readonly Lock _lock = new();
    private int _count;
    private long _overflowed;

    /// <summary>Creates a registry that tracks at most <paramref name="maxWorkflows"/> workflows besides the overflow one.</summary>
    /// <param name="maxWorkflows">The bound; at least 1.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxWorkflows"/> is less than 1.</exception>
    public WorkflowRegistry(int maxWorkflows = DefaultMaxWorkflows)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxWorkflows, 1);
        MaxWorkflows = maxWorkflows;
        _bySpan = _byId.GetAlternateLookup<ReadOnlySpan<char>>();
        _slots = new WorkflowSlot[maxWorkflows + 1];
        Overflow = new WorkflowSlot(this, 0, new WorkflowId(OverflowWorkflowName, trusted: true), isOverflow: true);
        _slots[0] = Overflow;
        _byId[OverflowWorkflowName] = Overflow;
        _count = 1;
    }

    /// <summary>Gets the bound on tracked workflows, not counting the overflow workflow.</summary>
    public int MaxWorkflows { get; }

    /// <summary>Gets the size of arrays indexed by <see cref="WorkflowSlot.Index"/>.</summary>
    public int SlotCapacity => _slots.Length;

    /// <summary>Gets the number of slots in use, including the overflow workflow.</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>Gets the overflow workflow.</summary>
    internal WorkflowSlot Overflow { get; }

    /// <summary>Gets how many resolutions have folded into the overflow workflow.</summary>
    public long OverflowCount => Interlocked.Read(ref _overflowed);

    /// <summary>Gets the slot at <paramref name="index"/>.</summary>
    /// <param name="index">A value below <see cref="Count"/>.</param>
    public WorkflowSlot this[int index]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)Count, nameof(index));
            return Volatile.Read(ref _slots[index]);
        }
    }

    /// <summary>Returns the slot of <paramref name="id"/>, tracking it if there is room, else the overflow slot.</summary>
    /// <param name="id">The workflow id; the default id resolves to the overflow workflow.</param>
    /// <returns>The slot.</returns>
    public WorkflowSlot Resolve(WorkflowId id)
    {
        if (id.IsEmpty)
        {
            return Overflow;
        }

        if (_byId.TryGetValue(id.Value, out var slot))
        {
            return slot;
        }

        lock (_lock)
        {
            if (_byId.TryGetValue(id.Value, out slot))
            {
                return slot;
            }

            if (_count >= _slots.Length)
            {
                Interlocked.Increment(ref _overflowed);
                return Overflow;
            }

            slot = new WorkflowSlot(this, _count, id, isOverflow: false);
            Volatile.Write(ref _slots[_count], slot);
            _byId[id.Value] = slot;
            Volatile.Write(ref _count, _count + 1);
            return slot;
        }
    }

    /// <summary>Finds a tracked workflow without adding it.</summary>
    /// <param name="id">The workflow id.</param>
    /// <param name="slot">The slot if tracked.</param>
    /// <returns><see langword="true"/> if the workflow is tracked.</returns>
    public bool TryGet(WorkflowId id, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out WorkflowSlot? slot)
    {
        if (id.IsEmpty)
        {
            slot = null;
            return false;
        }

        return _byId.TryGetValue(id.Value, out slot);
    }

    /// <summary>Finds a tracked workflow by its id text without allocating.</summary>
    /// <param name="id">The id text.</param>
    /// <param name="slot">The slot if tracked.</param>
    /// <returns><see langword="true"/> if the workflow is tracked.</returns>
    public bool TryGet(ReadOnlySpan<char> id, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out WorkflowSlot? slot) =>
        _bySpan.TryGetValue(id, out slot);
}
