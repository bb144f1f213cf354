// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>
/// The promise that rate control never hurts a healthy system and protects a loaded one, checked by simulating a
/// generated scenario (docs/reliability.md, "Random topologies"):
/// <list type="bullet">
/// <item><description>no aggressor: <c>rc</c> completes ≥ 99.5% of what <c>baseline</c> completes, per workflow, with
/// p99 ≤ 1.25x the baseline's, and <c>rc+drr</c> likewise against <c>drr</c> (the same scheduler without rate control,
/// so the promise is about rate control alone); bursts at a healthy peak included;</description></item>
/// <item><description>with an aggressor: under <c>rc</c> and <c>rc+drr</c> the compliant tenants complete ≥ 99% of their
/// offered load with p99 ≤ 2x their p99 in the same topology without the aggressor, and at least 80% of what the
/// aggressor does not complete is refused at the entry tier, not failed or dropped deeper;</description></item>
/// <item><description>always: offered = completed + dropped + failed per workflow, and σ at the entry tier stays
/// within 4x the largest of the workflow's peak offered rate, the bottleneck's capacity and one request per control
/// interval at each entry instance (<see cref="ResolutionPerSecond"/> × the entry tier's instances).</description></item>
/// </list>
/// </summary>
public static class RateControlGuarantee
{
    /// <summary>The least fraction of the baseline's completions rate control must keep, without an aggressor.</summary>
    public const double CompletedVersusBaseline = 0.995;

    /// <summary>The largest p99 latency over the baseline's, without an aggressor.</summary>
    public const double P99VersusBaseline = 1.25;

    /// <summary>The least fraction of their offered load compliant tenants complete beside an aggressor.</summary>
    public const double CompliantCompleted = 0.99;

    /// <summary>The largest p99 latency of compliant tenants over theirs without the aggressor.</summary>
    public const double CompliantP99 = 2;

    /// <summary>The bound on σ at the entry tier, as a multiple of max(peak offered rate, bottleneck capacity).</summary>
    public const double SigmaBound = 4;

    /// <summary>
    /// The least rate σ is measured against at each entry instance, requests per second: one request per default
    /// control interval (100 ms). Below it a workflow's rate is read from whole requests per interval, and the policy's
    /// floor (its initial rate, 10/s) is what "what the workflow offers" means there. Each instance measures on its own,
    /// so the entry tier's Σσ is bounded by this times its instance count.
    /// </summary>
    public const double ResolutionPerSecond = 10;

    // Latencies within this of the reference count as equal: sub-millisecond tails move with any scheduling change.
    private const double LatencySlackMs = 2;

    /// <summary>Simulates the scenario's configurations (and, with an aggressor, the reference without it) and checks the guarantee.</summary>
    /// <param name="generated">A scenario from <see cref="ScenarioGenerator"/>.</param>
    /// <returns>The report.</returns>
    public static GuaranteeReport Check(GeneratedScenario generated)
    {
        ArgumentNullException.ThrowIfNull(generated);
        var check = new Checker(generated);
        var scenario = generated.Scenario;
        var runs = 0;
        TopologyRunResult Run(ScenarioSpec spec, string configuration)
        {
            runs++;
            var result = Simulate(spec, configuration);
            check.Always(result);
            return result;
        }

        if (generated.Aggressor is null)
        {
            foreach (var (rc, reference) in new[] { ("rc", "baseline"), ("rc+drr", "drr") })
            {
                check.NoWorseThan(Run(scenario, rc), Run(scenario, reference));
            }
        }
        else
        {
            var without = generated.WithoutAggressor();
            foreach (var rc in new[] { "rc", "rc+drr" })
            {
                check.Protects(Run(scenario, rc), Run(without, rc));
            }
        }

        return new GuaranteeReport
        {
            Seed = generated.Seed,
            LoadKind = generated.LoadKind,
            Description = scenario.Description ?? string.Empty,
            Violations = check.Violations,
            WorstMargin = check.WorstMargin,
            WorstCheck = check.WorstCheck,
            Runs = runs,
        };
    }

    /// <summary>
    /// The aggressor half of the guarantee with a perfect limit in place of rate control: the aggressor offers just the
    /// rate that brings the bottleneck's measured utilization to <paramref name="utilization"/> (the compliant tenants'
    /// share measured without it, the rest from the aggressor's rate and fair share), and the compliant tenants are checked
    /// under <c>baseline</c> and <c>drr</c> against the same reference as <see cref="Check"/>. It bounds what any rate
    /// control that fills the bottleneck that far can meet on the scenario (docs/reliability.md §8).
    /// </summary>
    /// <param name="generated">A scenario with an aggressor, from <see cref="ScenarioGenerator"/>.</param>
    /// <param name="utilization">The bottleneck's utilization the limit aims at, in (0, 1].</param>
    /// <returns>The report; its runs include the reference.</returns>
    /// <exception cref="ArgumentException">The scenario has no aggressor.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="utilization"/> is outside (0, 1].</exception>
    public static GuaranteeReport CheckLimitedAggressor(GeneratedScenario generated, double utilization)
    {
        RequireAggressor(generated);
        if (!(utilization > 0 && utilization <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(utilization), utilization, "The utilization must be in (0, 1].");
        }

        return CheckAggressorOffering(
            generated,
            (compliant, rate) =>
            {
                // At its fair share the aggressor fills 1 / (tenants + 1) of the bottleneck, and it offers AggressorFactor shares.
                var perRequest = generated.AggressorFactor / (rate * (generated.Compliant.Count + 1));
                return Math.Max(0, (utilization - compliant) / perRequest);
            },
            string.Create(CultureInfo.InvariantCulture, $"the bottleneck at {utilization:P0}"),
            string.Create(CultureInfo.InvariantCulture, $"limited-at-{utilization:F2}"));
    }

    /// <summary>
    /// The aggressor half of the guarantee with the aggressor perfectly limited to its fair share: it offers its rate ÷
    /// <see cref="GeneratedScenario.AggressorFactor"/>, the share of the bottleneck an even split over every tenant gives
    /// it, however little the compliant tenants use of theirs. The compliant tenants are checked as in
    /// <see cref="CheckLimitedAggressor"/>. It bounds what a rate control that holds an aggressor to an even share, not to
    /// the capacity the others leave, can meet on the scenario (docs/reliability.md §8).
    /// </summary>
    /// <param name="generated">A scenario with an aggressor, from <see cref="ScenarioGenerator"/>.</param>
    /// <returns>The report; its runs include the reference.</returns>
    /// <exception cref="ArgumentException">The scenario has no aggressor.</exception>
    public static GuaranteeReport CheckAggressorAtFairShare(GeneratedScenario generated)
    {
        RequireAggressor(generated);
        return CheckAggressorOffering(generated, (_, rate) => rate / generated.AggressorFactor, "its fair share", "at-fair-share");
    }

    private static void RequireAggressor(GeneratedScenario generated)
    {
        ArgumentNullException.ThrowIfNull(generated);
        if (generated.Aggressor is null)
        {
            throw new ArgumentException($"Seed {generated.Seed} has no aggressor to limit ({generated.LoadKind} load).", nameof(generated));
        }
    }

    /// <summary>Runs the scenario with the aggressor offering the given rate (from the compliant tenants' utilization of the bottleneck and its own rate) under baseline and drr.</summary>
    private static GuaranteeReport CheckAggressorOffering(GeneratedScenario generated, Func<double, double, double> limitedRate, string limitText, string nameSuffix)
    {
        var check = new Checker(generated);
        var without = generated.WithoutAggressor();
        var compliant = Simulate(without, "baseline").Resources.Where(r => r.Service == generated.BottleneckService).Max(r => r.Mean);
        var limited = ScenarioLoader.Parse(ScenarioLoader.ToJson(generated.Scenario), generated.Scenario.Name);
        var workload = limited.Workloads!.First(w => w.Workflow == generated.Aggressor);
        workload.RatePerSecond = limitedRate(compliant, workload.RatePerSecond);
        if (workload.RatePerSecond == 0)
        {
            // The compliant tenants alone fill the bottleneck that far: the limit admits nothing of the aggressor.
            limited.Workloads!.Remove(workload);
        }

        limited.Name += "-aggressor-" + nameSuffix;
        var reference = Simulate(without, "rc");
        var runs = 2;
        foreach (var configuration in new[] { "baseline", "drr" })
        {
            check.Protects(Simulate(limited, configuration), reference, aggressorRefused: false);
            runs++;
        }

        return new GuaranteeReport
        {
            Seed = generated.Seed,
            LoadKind = generated.LoadKind,
            Description = string.Create(CultureInfo.InvariantCulture, $"{generated.Scenario.Description} Aggressor limited to {workload.RatePerSecond:F1}/s, {limitText} (compliant tenants alone: {compliant:P0})."),
            Violations = check.Violations,
            WorstMargin = check.WorstMargin,
            WorstCheck = check.WorstCheck,
            Runs = runs,
        };
    }

    private static TopologyRunResult Simulate(ScenarioSpec spec, string configuration) =>
        new TopologySimulation(spec, spec.Configurations!.First(c => c.Name == configuration)).Run();

    private sealed class Checker(GeneratedScenario generated)
    {
        public List<string> Violations { get; } = [];

        public double WorstMargin { get; private set; } = double.PositiveInfinity;

        public string WorstCheck { get; private set; } = "none";

        public void Always(TopologyRunResult result)
        {
            foreach (var workflow in result.Workflows)
            {
                var accounted = workflow.Completed + workflow.Dropped + workflow.Failed;
                if (accounted != workflow.Offered)
                {
                    Violations.Add(F($"{result.Configuration}/{workflow.Workflow}: offered {workflow.Offered} != completed {workflow.Completed} + dropped {workflow.Dropped} + failed {workflow.Failed}"));
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

                var peak = PeakOffered(second.Workflow);
                var bound = SigmaBound * Math.Max(Math.Max(peak, generated.CapacityPerSecond), ResolutionPerSecond * entryInstances);
                Margin(bound / sigma, F($"{result.Configuration}/{second.Workflow}: entry σ {sigma:F1}/s at {second.Second} s, bound {bound:F1}/s"));
            }
        }

        public void NoWorseThan(TopologyRunResult rc, TopologyRunResult reference)
        {
            foreach (var workflow in reference.Workflows)
            {
                var mine = rc[workflow.Workflow];
                CompletedAndP99(
                    mine,
                    CompletedVersusBaseline * workflow.Completed,
                    (P99VersusBaseline * workflow.LatencyMs.P99) + LatencySlackMs,
                    F($"{rc.Configuration}/{workflow.Workflow}: completed {mine.Completed} vs {reference.Configuration} {workflow.Completed} (drops {Reasons(mine)})"),
                    F($"{rc.Configuration}/{workflow.Workflow}: p99 {mine.LatencyMs.P99:F1} ms vs {reference.Configuration} {workflow.LatencyMs.P99:F1} ms"));
            }
        }

        /// <summary>A workflow's two margins: completions against those needed, and p99 against its limit.</summary>
        private void CompletedAndP99(WorkflowRunResult mine, double needed, double p99Limit, string completedText, string p99Text)
        {
            Margin(needed > 0 ? mine.Completed / needed : double.PositiveInfinity, completedText);
            Margin(mine.LatencyMs.Count > 0 ? p99Limit / mine.LatencyMs.P99 : double.PositiveInfinity, p99Text);
        }

        public void Protects(TopologyRunResult rc, TopologyRunResult alone, bool aggressorRefused = true)
        {
            foreach (var workflow in alone.Workflows)
            {
                if (workflow.Workflow == generated.Aggressor)
                {
                    continue;
                }

                var mine = rc[workflow.Workflow];
                CompletedAndP99(
                    mine,
                    CompliantCompleted * mine.Offered,
                    (CompliantP99 * workflow.LatencyMs.P99) + LatencySlackMs,
                    F($"{rc.Configuration}/{workflow.Workflow} beside the aggressor: completed {mine.Completed} of {mine.Offered} (drops {Reasons(mine)})"),
                    F($"{rc.Configuration}/{workflow.Workflow} beside the aggressor: p99 {mine.LatencyMs.P99:F1} ms vs {workflow.LatencyMs.P99:F1} ms alone"));
            }

            if (!aggressorRefused)
            {
                return;
            }

            var aggressor = rc[generated.Aggressor!];
            var refused = aggressor.DroppedByReason.Where(r => r.Key is "rate-limited" or "deadline-infeasible" or "deadline-expired").Sum(r => r.Value);
            var lost = aggressor.Offered - aggressor.Completed;
            Margin(
                lost > 0 ? refused / (0.8 * lost) : double.PositiveInfinity,
                F($"{rc.Configuration}/aggressor: {refused} of {lost} not completed refused at the entry (drops {Reasons(aggressor)}, failures {aggressor.Failed})"));
        }

        private static string Reasons(WorkflowRunResult workflow) =>
            workflow.DroppedByReason.Count == 0 ? "none" : string.Join(", ", workflow.DroppedByReason.Select(r => F($"{r.Key} {r.Value}")));

        private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

        private double PeakOffered(string workflow)
        {
            var spec = generated.Scenario.Workloads!.FirstOrDefault(w => w.Workflow == workflow);
            return spec is null ? 0 : Math.Max(spec.RatePerSecond, spec.Steps?.Max(s => s.RatePerSecond ?? 0) ?? 0);
        }

        private void Margin(double margin, string what)
        {
            if (margin < WorstMargin)
            {
                WorstMargin = margin;
                WorstCheck = what;
            }

            if (margin < 1)
            {
                Violations.Add(what);
            }
        }
    }
}
