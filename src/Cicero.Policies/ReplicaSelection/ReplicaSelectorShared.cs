// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>Failure messages and span helpers shared by the built-in selectors.</summary>
internal static class ReplicaSelectorShared
{
    public const string EmptyGroupReason = "The replica group is empty: there is no replica to send the request to.";

    public const string AllDownReason = "Every replica in the group is down.";

    public static ReplicaChoice EmptyGroup => ReplicaChoice.Fail(EmptyGroupReason);

    public static ReplicaChoice AllDown => ReplicaChoice.Fail(AllDownReason);

    /// <summary>Counts the replicas that are not down.</summary>
    public static int CountUp(ReadOnlySpan<ReplicaState> replicas)
    {
        var up = 0;
        foreach (var replica in replicas)
        {
            if (!replica.IsDown)
            {
                up++;
            }
        }

        return up;
    }

    /// <summary>Finds the index of the <paramref name="n"/>-th (from 0) replica that is not down.</summary>
    public static int NthUp(ReadOnlySpan<ReplicaState> replicas, int n)
    {
        for (var i = 0; i < replicas.Length; i++)
        {
            if (!replicas[i].IsDown && n-- == 0)
            {
                return i;
            }
        }

        throw new ArgumentOutOfRangeException(nameof(n), "Fewer replicas are up than the index asked for.");
    }

    /// <summary>Converts a duration to timestamp ticks of a clock with the given frequency (at least 1).</summary>
    public static long ToTimestampTicks(TimeSpan duration, long timestampFrequency)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        var ticks = Math.Round(duration.Ticks * ((double)timestampFrequency / TimeSpan.TicksPerSecond));
        return ticks >= long.MaxValue ? long.MaxValue : Math.Max(1, (long)ticks);
    }

    /// <summary>Draws a seed from a shared source under a lock, so selectors made by one factory get distinct, repeatable sources.</summary>
    public static Random NextRandom(Random seeds, Lock gate)
    {
        lock (gate)
        {
            return new Random(seeds.Next());
        }
    }
}
