// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>
/// Ties together the replica groups of one client that share servers (C3 §4.3: in Cassandra every node belongs to
/// several groups). The groups share one lock, so a selector and the per-server states they share are used by one
/// thread at a time, and when capacity frees up the groups' backlogs are served in turn, one request each, so one
/// group cannot starve another on a shared server.
/// </summary>
/// <remarks>Thread-safe. Pass the same coordinator to every <see cref="ReplicaGroup"/> of the client.</remarks>
public sealed class ReplicaGroupCoordinator
{
    // Copied on register and unregister (rare), so that the pump after every response reads it without a copy.
    private ReplicaGroup[] _groups = [];
    private int _next;

    /// <summary>Gets the number of groups registered.</summary>
    public int GroupCount
    {
        get
        {
            lock (SyncRoot)
            {
                return _groups.Length;
            }
        }
    }

    internal Lock SyncRoot { get; } = new();

    internal void Register(ReplicaGroup group)
    {
        lock (SyncRoot)
        {
            _groups = [.. _groups, group];
        }
    }

    internal void Unregister(ReplicaGroup group)
    {
        lock (SyncRoot)
        {
            _groups = Array.FindAll(_groups, g => g != group);
        }
    }

    /// <summary>Releases backlogged requests one per group in rotation until no group can release another.</summary>
    internal void PumpFairly()
    {
        while (true)
        {
            ReplicaGroup[] groups;
            int start;
            lock (SyncRoot)
            {
                groups = _groups;
                start = groups.Length == 0 ? 0 : _next % groups.Length;
            }

            var progressed = false;
            for (var k = 0; k < groups.Length; k++)
            {
                var index = (start + k) % groups.Length;
                if (groups[index].TryReleaseOne())
                {
                    progressed = true;
                    lock (SyncRoot)
                    {
                        _next = index + 1;
                    }
                }
            }

            if (!progressed)
            {
                return;
            }
        }
    }
}
