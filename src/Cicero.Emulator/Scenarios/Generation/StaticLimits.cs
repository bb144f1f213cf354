// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>
/// The well-informed static limits the guarantee compares rate control with: each workflow limited at the entry to its
/// max-min share of a fill of the bottleneck's capacity, computed from the generated capacities and costs, run without
/// rate control. A Poisson workload refused at random down to its limit is a Poisson workload at the limit, so a limit
/// is run as the workload offered at that rate.
/// </summary>
public static class StaticLimits
{
    /// <summary>Gets the fills of the bottleneck the static limits aim at, ascending; the last is the full fill.</summary>
    public static IReadOnlyList<double> Fills { get; } = [0.8, 0.9, 1.0];

    /// <summary>Max-min fair shares of a capacity by water-filling: no demand gets more than it asks, and what one leaves is split evenly over the rest.</summary>
    /// <param name="demands">The demands, in units of the capacity; none negative.</param>
    /// <param name="capacity">The capacity; not negative.</param>
    /// <returns>The shares, in the order of the demands.</returns>
    public static double[] MaxMinShares(IReadOnlyList<double> demands, double capacity)
    {
        ArgumentNullException.ThrowIfNull(demands);
        if (demands.Any(d => !(d >= 0)) || !(capacity >= 0))
        {
            throw new ArgumentOutOfRangeException(nameof(demands), "Demands and the capacity must be non-negative numbers.");
        }

        var shares = new double[demands.Count];
        var left = capacity;
        var open = Enumerable.Range(0, demands.Count).OrderBy(i => demands[i]).ToList();
        while (open.Count > 0)
        {
            var level = left / open.Count;
            var smallest = open[0];
            if (demands[smallest] > level)
            {
                foreach (var i in open)
                {
                    shares[i] = level;
                }

                break;
            }

            shares[smallest] = demands[smallest];
            left -= demands[smallest];
            open.RemoveAt(0);
        }

        return shares;
    }

    /// <summary>Each workflow's static limit, requests per second: its max-min share of <paramref name="fill"/> of the bottleneck, over its cost there.</summary>
    /// <param name="generated">The scenario.</param>
    /// <param name="fill">The fill of the bottleneck, in (0, 1].</param>
    /// <returns>The limits by workflow.</returns>
    public static IReadOnlyDictionary<string, double> RatesAt(GeneratedScenario generated, double fill)
    {
        ArgumentNullException.ThrowIfNull(generated);
        if (!(fill > 0 && fill <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(fill), fill, "The fill must be in (0, 1].");
        }

        var workloads = generated.Scenario.Workloads!;
        var demands = workloads.Select(w => PeakRate(w) * generated.Costs[w.Workflow!]).ToArray();
        var shares = MaxMinShares(demands, fill * generated.CapacityPerSecond);
        return workloads.Select((w, i) => (Workflow: w.Workflow!, Rate: shares[i] / generated.Costs[w.Workflow!]))
            .ToDictionary(p => p.Workflow, p => p.Rate, StringComparer.Ordinal);
    }

    /// <summary>
    /// Whether the scenario is healthy: its total peak demand fits in the bottleneck's capacity, so every workflow offers
    /// at or below its max-min share and no service's load exceeds its capacity.
    /// </summary>
    /// <param name="generated">The scenario.</param>
    /// <returns><see langword="true"/> when healthy.</returns>
    public static bool IsHealthy(GeneratedScenario generated)
    {
        ArgumentNullException.ThrowIfNull(generated);
        var demand = generated.Scenario.Workloads!.Sum(w => PeakRate(w) * generated.Costs[w.Workflow!]);
        return demand <= generated.CapacityPerSecond;
    }

    /// <summary>A copy of the scenario with each workload offered at most its limit (a max-min share is never zero for a workflow that offers load).</summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="limits">The limits by workflow, requests per second; a workflow not named is not limited.</param>
    /// <param name="fill">The fill, for the copy's name.</param>
    /// <returns>The copy.</returns>
    public static ScenarioSpec Apply(ScenarioSpec scenario, IReadOnlyDictionary<string, double> limits, double fill)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(limits);
        var copy = ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario), scenario.Name);
        foreach (var workload in copy.Workloads!)
        {
            if (workload.Workflow is not null && limits.TryGetValue(workload.Workflow, out var limit))
            {
                workload.RatePerSecond = Math.Min(workload.RatePerSecond, limit);
            }
        }

        copy.Name += string.Create(CultureInfo.InvariantCulture, $"-static-{fill:F2}");
        return copy;
    }

    private static double PeakRate(WorkloadSpec workload) =>
        Math.Max(workload.RatePerSecond, workload.Steps?.Max(s => s.RatePerSecond ?? 0) ?? 0);
}
