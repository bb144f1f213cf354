// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Where a periodic task of the simulator (a rate-control round, a per-second Σσ sample) ticks next. Across a long idle
/// gap of a replay (nothing in flight, the next arrival far off) rate control has nothing to measure: stepping it once
/// per interval would only repeat the idle state, so a trace whose last request arrives days after the others would
/// cost time and memory in proportion to the gap, not to its requests. The task then skips whole periods (keeping its
/// phase) to <see cref="Settle"/> before the arrival, so rate control still idles that long before traffic returns.
/// Gaps up to twice <see cref="Settle"/> are stepped through as before.
/// </summary>
internal static class IdleGap
{
    /// <summary>
    /// How long before the next arrival the periodic tasks resume: five minutes of simulated time. Lulls of minutes are
    /// ordinary in traces and are stepped and shown as they are; the skip is for gaps of many minutes to days, and
    /// bounds what one gap costs to stepping 2 x <see cref="Settle"/>.
    /// </summary>
    public static readonly long Settle = TimeSpan.FromMinutes(5).Ticks;

    /// <summary>Gets the next open-loop arrival of a replay while nothing is in flight, else null (nothing to skip to).</summary>
    /// <param name="replay">The replay, if the run is one.</param>
    /// <param name="inFlight">The requests in flight.</param>
    /// <param name="stopped">Whether the run was stopped (nothing more is offered).</param>
    public static long? Arrival(TraceReplayDriver? replay, long inFlight, bool stopped) =>
        inFlight == 0 && !stopped && replay is { Exhausted: false, ClosedLoopClients: 0 }
            ? (long)Math.Round(replay.ArrivalSeconds(replay.Peek) * TimeSpan.TicksPerSecond)
            : null;

    /// <summary>Gets the next tick of a task with period <paramref name="period"/> that ticked at <paramref name="now"/>.</summary>
    /// <param name="now">The tick that just ran.</param>
    /// <param name="period">The task's period, positive.</param>
    /// <param name="nextArrival">When the next request arrives, if nothing is in flight and the arrival is known; otherwise null.</param>
    /// <returns><paramref name="now"/> plus one period, or plus as many whole periods as leave <see cref="Settle"/> before the arrival.</returns>
    public static long Next(long now, long period, long? nextArrival)
    {
        if (nextArrival is not { } arrival || period <= 0 || arrival - now <= 2 * Settle)
        {
            return now + period;
        }

        return now + (Math.Max(1, (arrival - Settle - now) / period) * period);
    }

    /// <summary>
    /// Gets the seconds a replay's per-second series leaves out: those of a stretch longer than twice <see cref="Settle"/>
    /// in which no workflow had a request offered or an outcome. Such a stretch would otherwise cost one row per second
    /// and workflow (a trace spanning days with a few requests), and its rows say only that nothing happened.
    /// </summary>
    /// <param name="workflows">Each workflow's per-second bins (<see cref="WorkflowCounters.Bins"/>).</param>
    /// <returns>Per second, whether to leave it out.</returns>
    public static bool[] LongIdleSeconds(IReadOnlyList<IReadOnlyList<SecondBin>> workflows)
    {
        var length = workflows.Count == 0 ? 0 : workflows.Max(static w => w.Count);
        var busy = new bool[length];
        foreach (var bins in workflows)
        {
            for (var second = 0; second < bins.Count; second++)
            {
                var bin = bins[second];
                busy[second] |= bin.Offered != 0 || bin.Completed != 0 || bin.Dropped != 0 || bin.Failed != 0;
            }
        }

        var skip = new bool[length];
        var longest = 2 * Settle / TimeSpan.TicksPerSecond;
        var start = 0;
        while (start < length)
        {
            var end = start;
            while (end < length && !busy[end])
            {
                end++;
            }

            if (end - start > longest)
            {
                Array.Fill(skip, true, start, end - start);
            }

            start = end + 1;
        }

        return skip;
    }
}
