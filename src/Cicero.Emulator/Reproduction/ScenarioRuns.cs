// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using static Cicero.Emulator.Reproduction.Claims;

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// One embedded scenario run with every configuration on the same seeds 1..n, so that each comparison between
/// configurations is paired seed by seed and every verdict comes from an interval over the seeds.
/// </summary>
internal sealed class ScenarioRuns
{
    private ScenarioRuns(IReadOnlyDictionary<string, TopologyRunResult>[] seeds) => Seeds = seeds;

    /// <summary>Gets the results per seed (seed i + 1 at index i), each keyed by configuration.</summary>
    public IReadOnlyDictionary<string, TopologyRunResult>[] Seeds { get; }

    /// <summary>Gets the configurations, in the scenario's order.</summary>
    public IEnumerable<string> Configurations => Seeds[0].Keys;

    /// <summary>Runs an embedded scenario on seeds 1..<see cref="ReproductionSettings.ScenarioSeeds"/>.</summary>
    /// <param name="settings">Size, parallelism and progress.</param>
    /// <param name="name">The embedded scenario.</param>
    /// <param name="change">A change made at every size (a diagnostic variant, for example).</param>
    /// <param name="reduce">The change that shortens the scenario at reduced size.</param>
    /// <returns>The runs.</returns>
    public static ScenarioRuns Run(ReproductionSettings settings, string name, Action<ScenarioSpec>? change = null, Action<ScenarioSpec>? reduce = null)
    {
        var count = settings.ScenarioSeeds;
        settings.Progress?.WriteLine(F($"  scenario: {name}, seeds 1-{count}"));
        var seeds = new IReadOnlyDictionary<string, TopologyRunResult>[count];
        Parallel.For(0, count, new ParallelOptions { MaxDegreeOfParallelism = settings.Parallelism }, i =>
        {
            var scenario = ScenarioLoader.LoadEmbedded(name);
            change?.Invoke(scenario);
            if (settings.Reduced)
            {
                reduce?.Invoke(scenario);
            }

            scenario.Seed = i + 1;
            seeds[i] = TopologySimulation.RunAll(scenario).ToDictionary(r => r.Configuration);
        });
        return new ScenarioRuns(seeds);
    }

    /// <summary>One figure per seed, in seed order.</summary>
    public double[] PerSeed(Func<IReadOnlyDictionary<string, TopologyRunResult>, double> figure) => [.. Seeds.Select(figure)];

    /// <summary>One configuration's figure per seed, in seed order.</summary>
    public double[] PerSeed(string configuration, Func<TopologyRunResult, double> figure) => [.. Seeds.Select(s => figure(s[configuration]))];

    /// <summary>
    /// One row per configuration and workflow, means over the seeds: offered, completed (± its 95% interval), dropped,
    /// timed out, latency percentiles (p99 ± its interval), throughput.
    /// </summary>
    public string Table(Func<string, bool>? workflows = null)
    {
        var text = new StringBuilder(F($"Means over seeds 1-{Seeds.Length}; ± is the 95% interval over seeds.\n\n"))
            .Append("| configuration | workflow | offered | completed | dropped | timed out | p50 ms | p99 ms | mean ms | throughput /s |\n|---|---|---|---|---|---|---|---|---|---|\n");
        foreach (var configuration in Configurations)
        {
            foreach (var workflow in Seeds[0][configuration].Workflows.Select(w => w.Workflow).Where(w => workflows?.Invoke(w) ?? true))
            {
                double[] Of(Func<WorkflowRunResult, double> figure) => PerSeed(configuration, r => figure(r[workflow]));
                text.Append(CultureInfo.InvariantCulture, $"| {configuration} | {workflow} | {Of(w => w.Offered).Average():N0} | {Verdicts.Ci(Of(w => w.CompletedFraction), "P1")} | {Of(w => w.Dropped).Average():N0} | {Of(w => w.TimedOut).Average():N0} | {Of(w => w.LatencyMs.P50).Average():0.0} | {Verdicts.Ci(Of(w => w.LatencyMs.P99), "0.0")} | {Of(w => w.LatencyMs.Mean).Average():0.0} | {Of(w => w.Throughput).Average():0.0} |\n");
            }
        }

        return text.ToString();
    }

    /// <summary>The fraction of the matching workflows' offered requests in [from, to) that completed, in one run.</summary>
    public static double CompletedIn(TopologyRunResult result, Func<string, bool> workflows, int from, int to)
    {
        var points = result.TimeSeries.Where(p => workflows(p.Workflow) && p.Second >= from && p.Second < to).ToList();
        var offered = points.Sum(p => p.Offered);
        return offered == 0 ? double.NaN : (double)points.Sum(p => p.Completed) / offered;
    }
}
