// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.StorageTopology;

/// <summary>
/// The <c>deadline</c> command's size limits, checked on one pass over the trace before the repeated plan is built:
/// the experiment keeps a few numbers per request and a run per load level and configuration, so its memory and time
/// grow with the requests and with the scaled duration, which a slow-down (a speed-up below 1) stretches.
/// </summary>
internal static class DeadlineLimits
{
    /// <summary>The most requests (trace x --repeat) one experiment takes: about 0.5 GB at the default four levels.</summary>
    public const long MaxRequests = 2_000_000;

    /// <summary>Checks the run's size.</summary>
    /// <param name="single">The plan of one copy of the trace.</param>
    /// <param name="repeat">How many copies are played back to back (one second apart).</param>
    /// <param name="closedLoop">Whether the levels are client counts.</param>
    /// <param name="levels">The load levels.</param>
    /// <returns>The problem, or <see langword="null"/>.</returns>
    public static string? Check(TraceReplayPlan single, int repeat, bool closedLoop, IReadOnlyList<double> levels)
    {
        var requests = single.RequestCount * (double)repeat;
        if (requests > MaxRequests)
        {
            return string.Create(CultureInfo.InvariantCulture, $"--repeat {repeat:N0}: {single.RequestCount:N0} requests x {repeat:N0} = {requests:N0}, more than the experiment's limit of {MaxRequests:N0} requests.");
        }

        if (closedLoop)
        {
            var clients = levels.Max();
            return clients > ScenarioLimits.MaxClients
                ? string.Create(CultureInfo.InvariantCulture, $"--loads: {clients:N0} clients, more than the limit of {ScenarioLimits.MaxClients:N0}.")
                : null;
        }

        var seconds = repeat * (single.DurationSeconds + 1);
        var slowest = levels.Min();
        return seconds / slowest > ScenarioLimits.MaxDurationSeconds
            ? string.Create(CultureInfo.InvariantCulture, $"--loads {slowest:G4}: the replay's {seconds:0.###} s of arrivals would span {seconds / slowest:G3} s, more than the limit of one week ({ScenarioLimits.MaxDurationSeconds:N0} s).")
            : null;
    }
}
