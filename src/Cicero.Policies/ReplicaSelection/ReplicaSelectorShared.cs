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

    /// <summary>
    /// Picks the live replica with the lowest cost; ties go to the first tied replica at or after
    /// <paramref name="next"/>, which then moves past the pick, so equal replicas take turns.
    /// </summary>
    /// <typeparam name="TCost">A struct cost function, so the call is inlined and allocates nothing.</typeparam>
    public static ReplicaChoice ChooseCheapestRotating<TCost>(ReadOnlySpan<ReplicaState> replicas, ref int next, TCost cost)
        where TCost : struct, IReplicaCost
    {
        var count = replicas.Length;
        if (count == 0)
        {
            return EmptyGroup;
        }

        var start = next % count;
        var best = -1;
        var lowest = double.PositiveInfinity;
        for (var k = 0; k < count; k++)
        {
            var index = start + k < count ? start + k : start + k - count;
            var replica = replicas[index];
            if (replica.IsDown)
            {
                continue;
            }

            var value = cost.Of(replica);
            if (best < 0 || value < lowest)
            {
                best = index;
                lowest = value;
            }
        }

        if (best < 0)
        {
            return AllDown;
        }

        next = best + 1 < count ? best + 1 : 0;
        return ReplicaChoice.Replica(best);
    }

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

/// <summary>A replica's cost for <see cref="ReplicaSelectorShared.ChooseCheapestRotating{TCost}"/>.</summary>
internal interface IReplicaCost
{
    double Of(ReplicaState replica);
}
