// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>
/// A resource's permit slots: which are held, by which workflow's sub-task, and since when. Every slot is either free
/// (listed in <c>_free[0.._freeCount)</c>) or held; a slot's version grows at each release, so a stale lease's release
/// finds a mismatch and is a no-op.
/// </summary>
/// <remarks>Not thread-safe: the <see cref="ResourceSemaphore"/>'s lock guards it.</remarks>
internal sealed class PermitGrants
{
    private Grant[] _grants;
    private int[] _free;
    private int _freeCount;

    public PermitGrants(int capacity)
    {
        _grants = new Grant[capacity];
        _free = new int[capacity];
        for (var i = 0; i < capacity; i++)
        {
            _free[i] = capacity - 1 - i;
        }

        _freeCount = capacity;
    }

    /// <summary>Takes a free slot for a sub-task starting <paramref name="now"/>, growing the table when a larger capacity needs it.</summary>
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
        // Count the part of the interval that still-held permits have been busy, so long holds show up as load.
        for (var i = 0; i < _grants.Length; i++)
        {
            ref var grant = ref _grants[i];
            if (grant.InUse)
            {
                usage.AddBusy(grant.Workflow!.Index, now - grant.AccountedFrom);
                grant.AccountedFrom = now;
            }
        }
    }

    private void Grow()
    {
        // Capacity grew past the slots we had (Configure); permits beyond the old capacity get new slots.
        var oldLength = _grants.Length;
        Array.Resize(ref _grants, oldLength * 2);
        Array.Resize(ref _free, oldLength * 2);
        for (var i = _grants.Length - 1; i >= oldLength; i--)
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
    }
}
