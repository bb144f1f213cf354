// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>
/// The rate-control guarantee on a generated scenario (docs/reliability.md §8): R (<c>rc</c> or <c>rc+drr</c>) is run on
/// <see cref="DefaultRunSeeds"/> run seeds and compared, run seed by run seed, with the same scheduler without rate
/// control (healthy: <see cref="GuaranteeProperty.Healthy"/>) or with the well-informed static limits of
/// <see cref="StaticLimits"/> (aggressor: <see cref="GuaranteeProperty.Aggressor"/>). Always: offered = completed +
/// dropped + failed per workflow, and σ at the entry tier stays within <see cref="SigmaBound"/> times the largest of the
/// workflow's peak offered rate, the bottleneck's capacity and <see cref="ResolutionPerSecond"/> per entry instance.
/// </summary>
public static class RateControlGuarantee
{
    /// <summary>The run seeds per configuration: the topology's seed and four derived from it.</summary>
    public const int DefaultRunSeeds = 5;

    /// <summary>The bound on σ at the entry tier, as a multiple of max(peak offered rate, bottleneck capacity).</summary>
    public const double SigmaBound = 4;

    /// <summary>
    /// The least rate σ is measured against at each entry instance, requests per second: one request per default
    /// control interval (100 ms). Each instance measures on its own, so the entry tier's Σσ is bounded by this times its
    /// instance count.
    /// </summary>
    public const double ResolutionPerSecond = 10;

    // Derived run seeds come from this stream of the topology's seed (SeedStreams' others are below 2,000).
    private const int RunSeedStream = 7000;

    /// <summary>Gets the rate-controlled configurations and their references (the same scheduler without rate control).</summary>
    public static IReadOnlyList<(string RateControlled, string Reference)> Pairs { get; } = [("rc", "baseline"), ("rc+drr", "drr")];

    /// <summary>The run seeds of a topology: its own seed, then ones derived from it.</summary>
    /// <param name="seed">The topology's seed.</param>
    /// <param name="count">How many.</param>
    /// <returns>The run seeds.</returns>
    public static IReadOnlyList<int> RunSeeds(int seed, int count) =>
        Enumerable.Range(0, count).Select(k => k == 0 ? seed : SeedStreams.Derive(seed, RunSeedStream + k)).ToArray();

    /// <summary>Simulates the scenario's configurations (and, with an aggressor, its static limits) and checks the guarantee.</summary>
    /// <param name="generated">A scenario from <see cref="ScenarioGenerator"/>.</param>
    /// <param name="runSeeds">Run seeds per configuration; at least 1.</param>
    /// <returns>The report.</returns>
    public static GuaranteeReport Check(GeneratedScenario generated, int runSeeds = DefaultRunSeeds)
    {
        ArgumentNullException.ThrowIfNull(generated);
        ArgumentOutOfRangeException.ThrowIfLessThan(runSeeds, 1);
        var seeds = RunSeeds(generated.Seed, runSeeds);
        var scenarios = seeds.Select(s => WithSeed(generated.Scenario, s)).ToArray();
        var always = new List<string>();
        var runs = 0;
        IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> RunAll(IReadOnlyList<ScenarioSpec> specs, string configuration)
        {
            return specs.Select(spec =>
            {
                runs++;
                var result = new TopologySimulation(spec, spec.Configurations!.First(c => c.Name == configuration)).Run();
                Always(generated, result, always);
                return WorkflowOutcome.From(result);
            }).ToArray();
        }

        var category = generated.Aggressor is not null ? GuaranteeReport.Aggressor
            : StaticLimits.IsHealthy(generated) ? GuaranteeReport.Healthy
            : GuaranteeReport.Neither;
        var clauses = new List<GuaranteeClause>();
        if (category == GuaranteeReport.Aggressor)
        {
            var limited = StaticLimits.Fills
                .Select(fill => (Fill: fill, Specs: scenarios.Select(s => StaticLimits.Apply(s, StaticLimits.RatesAt(generated, fill), fill)).ToArray()))
                .ToArray();
            foreach (var (rateControlled, reference) in Pairs)
            {
                var statics = limited.Select(l => new StaticLimitRuns(l.Fill, RunAll(l.Specs, reference))).ToArray();
                clauses.AddRange(GuaranteeProperty.Aggressor(rateControlled, generated.Aggressor!, generated.Compliant, RunAll(scenarios, rateControlled), statics));
            }
        }
        else
        {
            foreach (var (rateControlled, reference) in Pairs)
            {
                var mine = RunAll(scenarios, rateControlled);
                if (category == GuaranteeReport.Healthy)
                {
                    clauses.AddRange(GuaranteeProperty.Healthy(rateControlled, mine, RunAll(scenarios, reference)));
                }
            }
        }

        return new GuaranteeReport
        {
            Seed = generated.Seed,
            LoadKind = generated.LoadKind,
            Category = category,
            Description = generated.Scenario.Description ?? string.Empty,
            Clauses = clauses,
            AlwaysViolations = always,
            RunSeeds = seeds,
            Runs = runs,
        };
    }

    private static ScenarioSpec WithSeed(ScenarioSpec scenario, int seed)
    {
        var copy = ScenarioLoader.Parse(ScenarioLoader.ToJson(scenario), scenario.Name);
        copy.Seed = seed;
        return copy;
    }

    /// <summary>Conservation per workflow and the σ bound at the entry tier, in one run.</summary>
    private static void Always(GeneratedScenario generated, TopologyRunResult result, List<string> violations)
    {
        foreach (var workflow in result.Workflows)
        {
            if (workflow.Completed + workflow.Dropped + workflow.Failed != workflow.Offered)
            {
                violations.Add(F($"{result.Configuration} (run seed {result.Seed})/{workflow.Workflow}: offered {workflow.Offered} != completed {workflow.Completed} + dropped {workflow.Dropped} + failed {workflow.Failed}"));
            }
        }

        var entry = generated.Scenario.EntryService;
        var entryInstances = generated.Scenario.Services!.First(s => s.Name == entry).Instances;
        foreach (var second in result.Rates)
        {
            if (second.Service != entry || second.TotalRate is not { } sigma)
            {
                continue;
            }

            var spec = generated.Scenario.Workloads!.FirstOrDefault(w => w.Workflow == second.Workflow);
            var peak = spec is null ? 0 : Math.Max(spec.RatePerSecond, spec.Steps?.Max(s => s.RatePerSecond ?? 0) ?? 0);
            var bound = SigmaBound * Math.Max(Math.Max(peak, generated.CapacityPerSecond), ResolutionPerSecond * entryInstances);
            if (sigma > bound)
            {
                violations.Add(F($"{result.Configuration} (run seed {result.Seed})/{second.Workflow}: entry σ {sigma:F1}/s at {second.Second} s, bound {bound:F1}/s"));
            }
        }
    }

    private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
