// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;

namespace Cicero.StorageTopology;

/// <summary>
/// A bound on a scenario run's memory, checked before it starts: a run holds every request in flight (about 1 KB each
/// in the simulator), and an open-loop workload keeps offering while its requests wait, up to the RPC timeout. So the
/// requests that can be in flight at once are about the summed peak rates times the shorter of the timeout and the
/// workload's span; a run that could hold more than <see cref="MaxInFlight"/> is refused instead of growing past 1 GB.
/// </summary>
internal static class RunLimits
{
    /// <summary>The most requests a run may hold in flight: about 0.5 GB (1,000,000 measured at 1.07 GB peak).</summary>
    public const double MaxInFlight = 500_000;

    /// <summary>Estimates the requests the scenario's open-loop workloads can hold in flight at once.</summary>
    /// <param name="scenario">A validated scenario.</param>
    /// <returns>The estimate.</returns>
    public static double InFlight(ScenarioSpec scenario)
    {
        var timeout = (scenario.Network ?? new NetworkSpec()).RpcTimeoutMs / 1000;
        var total = 0.0;
        foreach (var workload in scenario.Workloads ?? [])
        {
            if (workload is null || workload.Kind == WorkloadKinds.ClosedLoop)
            {
                continue;
            }

            var peak = Math.Max(workload.RatePerSecond, (workload.Steps ?? []).Select(static s => s?.RatePerSecond ?? 0).DefaultIfEmpty(0).Max());
            var span = Math.Min(workload.StopSeconds ?? scenario.DurationSeconds, scenario.DurationSeconds) - workload.StartSeconds;
            total += peak * Math.Max(0, Math.Min(span, timeout));
        }

        return total;
    }

    /// <summary>Checks the bound.</summary>
    /// <param name="scenario">A validated scenario.</param>
    /// <returns>The problem, or <see langword="null"/>.</returns>
    public static string? Check(ScenarioSpec scenario)
    {
        var inFlight = InFlight(scenario);
        return inFlight <= MaxInFlight
            ? null
            : string.Create(
                CultureInfo.InvariantCulture,
                $"workloads: up to {inFlight:N0} requests could be in flight at once (peak rates x the shorter of the RPC timeout, {(scenario.Network ?? new NetworkSpec()).RpcTimeoutMs:0.###} ms, and each workload's span); at most {MaxInFlight:N0} per run, about 0.5 GB. Lower the rates or network.rpcTimeoutMs.");
    }
}
