// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>Common layouts of replica groups for <see cref="ReplicaClientEngine{TRequest}.SetReplicas"/>.</summary>
public static class ReplicaGroupLayouts
{
    /// <summary>
    /// Groups of <paramref name="replication"/> consecutive replicas, one starting at each of <paramref name="count"/>
    /// replicas, wrapping around (a ring's replica groups, as in C3's and Cassandra's placement).
    /// </summary>
    /// <param name="count">The replicas.</param>
    /// <param name="replication">The group size.</param>
    /// <returns>Group <c>g</c> holds replicas <c>g, g+1, ..., g+replication-1</c> modulo <paramref name="count"/>.</returns>
    public static int[][] Windows(int count, int replication)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfLessThan(replication, 1);
        var groups = new int[count][];
        for (var start = 0; start < count; start++)
        {
            groups[start] = new int[replication];
            for (var r = 0; r < replication; r++)
            {
                groups[start][r] = (start + r) % count;
            }
        }

        return groups;
    }
}
