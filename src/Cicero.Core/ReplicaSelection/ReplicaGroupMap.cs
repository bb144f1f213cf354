// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>
/// Which replicas form which groups, for a <see cref="ReplicaClientEngine{TRequest}"/>: the replicas by index, each
/// group's members (indices) and view (states, as the selector sees them), the groups to retry when a replica frees up,
/// and which groups hold this process's own replica (the local fast path).
/// </summary>
internal sealed class ReplicaGroupMap
{
    private string? _localId;

    /// <summary>Gets the replicas, by index.</summary>
    public ReplicaState[] Replicas { get; private set; } = [];

    /// <summary>Gets each group's replicas, as indices into <see cref="Replicas"/>.</summary>
    public int[][] Members { get; private set; } = [];

    /// <summary>Gets each group's replicas, as states.</summary>
    public ReplicaState[][] Views { get; private set; } = [];

    /// <summary>Gets, per replica, the groups holding it: those it leads first, then those where it is second, ...</summary>
    public int[][] Holding { get; private set; } = [];

    /// <summary>Gets the local replica's index, or -1 when there is none (or it is not one of the replicas).</summary>
    public int Local { get; private set; } = -1;

    /// <summary>Gets, per group, whether it holds the local replica.</summary>
    public bool[] HoldsLocal { get; private set; } = [];

    /// <summary>Gets or sets the local replica's id; <see langword="null"/> turns the fast path off.</summary>
    public string? LocalId
    {
        get => _localId;
        set
        {
            _localId = value;
            Local = value is null ? -1 : Array.FindIndex(Replicas, r => r.Id == value);
            HoldsLocal = [.. Members.Select(g => Local >= 0 && Array.IndexOf(g, Local) >= 0)];
        }
    }

    /// <summary>Sets the replicas and the groups over them, after checking every index.</summary>
    /// <exception cref="ArgumentException">An index is out of range, or a group or replica is null.</exception>
    public void Set(ReplicaState[] replicas, int[][] groups)
    {
        var views = new ReplicaState[groups.Length][];
        var longest = 0;
        for (var g = 0; g < groups.Length; g++)
        {
            var group = groups[g] ?? throw new ArgumentException($"Group {g} is null.", nameof(groups));
            views[g] = new ReplicaState[group.Length];
            for (var i = 0; i < group.Length; i++)
            {
                if ((uint)group[i] >= (uint)replicas.Length)
                {
                    throw new ArgumentException($"Group {g} holds replica index {group[i]}, out of range (0..{replicas.Length - 1}).", nameof(groups));
                }

                views[g][i] = replicas[group[i]] ?? throw new ArgumentException($"Replica {group[i]} is null.", nameof(replicas));
            }

            longest = Math.Max(longest, group.Length);
        }

        // The groups to retry when a replica answers: those it leads first, then those where it is second, ...
        var holding = new List<int>[replicas.Length];
        for (var r = 0; r < replicas.Length; r++)
        {
            holding[r] = [];
        }

        for (var place = 0; place < longest; place++)
        {
            for (var g = 0; g < groups.Length; g++)
            {
                if (place < groups[g].Length)
                {
                    holding[groups[g][place]].Add(g);
                }
            }
        }

        Replicas = replicas;
        Members = groups;
        Views = views;
        Holding = [.. holding.Select(h => h.ToArray())];
        LocalId = _localId;
    }
}
