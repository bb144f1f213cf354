// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>
/// A resource's permit slots: which are held, by which workflow's sub-task, and since when. Every slot is either free
/// (listed in <c>_free[0.._freeCount)</c>) or held (listed in <c>_held[0.._heldCount)</c>, at its grant's
/// <c>HeldAt</c>); a slot's version grows at each release, so a stale lease's release finds a mismatch and is a no-op.
/// </summary>
/// <remarks>
/// Slots are made as the permits held at once need them, not up to the capacity: a pool of thousands of permits of
/// which a few are ever held costs a few slots, and closing an interval walks only the held ones. Not thread-safe: the
/// <see cref="ResourceSemaphore"/>'s lock guards it.
/// </remarks>
internal sealed class PermitGrants
{
    private const int InitialSlots = 8;

    private Grant[] _grants;
    private int[] _free;
    private int[] _held;
    private int _freeCount;
    private int _heldCount;

    public PermitGrants(int capacity)
    {
        var slots = Math.Min(capacity, InitialSlots);
        _grants = new Grant[slots];
        _free = new int[slots];
        _held = new int[slots];
        for (var i = 0; i < slots; i++)
        {
            _free[i] = slots - 1 - i;
        }

        _freeCount = slots;
    }

    /// <summary>Takes a free slot for a sub-task starting <paramref name="now"/>, making more slots when all are held.</summary>
    /// <returns>The slot's index; its version is <see cref="VersionOf"/>.</returns>
    public int Take(WorkflowSlot workflow, RequestContext context, int subtaskType, double cost, long now)
    {
        if (_freeCount == 0)
        {
            Grow();
        }

        var index = _free[--_freeCount];
        ref var grant = ref _grants[index];
        grant.InUse = true;
        grant.Workflow = workflow;
        grant.SubtaskType = subtaskType;
        grant.Cost = cost;
        grant.Context = context;
        grant.AcquiredAt = now;
        grant.AccountedFrom = now;
        grant.HeldAt = _heldCount;
        _held[_heldCount++] = index;
        return index;
    }

    public int VersionOf(int index) => _grants[index].Version;

    /// <summary>Frees the slot if it is held under <paramref name="version"/>; a stale or unknown lease frees nothing.</summary>
    /// <param name="index">The lease's slot.</param>
    /// <param name="version">The lease's version.</param>
    /// <param name="released">The grant as it was held.</param>
    /// <returns>Whether the slot was freed.</returns>
    public bool TryRelease(int index, int version, out Grant released)
    {
        if ((uint)index >= (uint)_grants.Length)
        {
            released = default;
            return false;
        }

        ref var grant = ref _grants[index];
        if (!grant.InUse || grant.Version != version)
        {
            released = default;
            return false;
        }

        released = grant;
        // The last held slot takes this one's place in the held list.
        var moved = _held[--_heldCount];
        _held[grant.HeldAt] = moved;
        _grants[moved].HeldAt = grant.HeldAt;
        grant.InUse = false;
        grant.Context = null;
        grant.Workflow = null;
        grant.Version++;
        _free[_freeCount++] = index;
        return true;
    }

    /// <summary>Adds to each held permit's workflow the time it has been busy since last accounted, up to <paramref name="now"/>.</summary>
    public void AccountHeld(ResourceUsage usage, long now)
    {
        // Count the part of the interval that still-held permits have been busy, so long holds show up as load. Busy
        // time is summed in whole ticks, so the order the held slots are visited in does not change the sums.
        for (var i = 0; i < _heldCount; i++)
        {
            ref var grant = ref _grants[_held[i]];
            usage.AddBusy(grant.Workflow!.Index, now - grant.AccountedFrom);
            grant.AccountedFrom = now;
        }
    }

    private void Grow()
    {
        // Every slot is held: more permits are held at once than ever before (or Configure raised the capacity).
        // Doubling keeps the cost per take constant; the caller never holds more than the capacity.
        var oldLength = _grants.Length;
        var newLength = Math.Max(InitialSlots, oldLength * 2);
        Array.Resize(ref _grants, newLength);
        Array.Resize(ref _free, newLength);
        Array.Resize(ref _held, newLength);
        for (var i = newLength - 1; i >= oldLength; i--)
        {
            _free[_freeCount++] = i;
        }
    }

    /// <summary>One permit slot.</summary>
    internal struct Grant
    {
        public bool InUse;
        public int Version;
        public WorkflowSlot? Workflow;
        public int SubtaskType;
        public double Cost;
        public long AcquiredAt;
        public long AccountedFrom;
        public RequestContext? Context;

        /// <summary>Where the slot sits in the held list while it is held.</summary>
        public int HeldAt;
    }
}
