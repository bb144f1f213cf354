// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>
/// The arithmetic of the rate-control guarantee (docs/reliability.md §8) on the outcomes of paired runs: run seed k of
/// the rate-controlled configuration R is compared with run seed k of its reference (the same scheduler without rate
/// control, or a static limit run without rate control).
/// <list type="bullet">
/// <item><description>H1: per workflow, R's completions summed over the run seeds ≥ the reference's − max(2, 0.5%).</description></item>
/// <item><description>H2: per workflow with at least 100 samples (median over run seeds, in the reference), the median
/// over run seeds of p99(R) ÷ (p99(reference) + 2 ms) ≤ 1.25.</description></item>
/// <item><description>A1: every compliant tenant completes, summed over the run seeds, ≥ min(99% of its offered load,
/// what it completes under the full-fill static limit − 1).</description></item>
/// <item><description>A2: every compliant tenant with at least 100 samples: the median over run seeds of p99(R) ÷
/// (1.25 p99(static) + 2 ms) ≤ 1, the static limit being the least fill whose aggressor goodput is at least R's (the
/// fullest fill when none is).</description></item>
/// <item><description>A3: the aggressor's goodput ≥ 50% of its goodput under the full-fill static limit, and ≥ 80% of
/// what it loses (offered − completed) refused at the entry.</description></item>
/// </list>
/// </summary>
public static class GuaranteeProperty
{
    /// <summary>H1's least slack, in requests summed over the run seeds.</summary>
    public const double CompletedSlackRequests = 2;

    /// <summary>H1's slack as a fraction of the reference's completions, when larger than <see cref="CompletedSlackRequests"/>.</summary>
    public const double CompletedSlackFraction = 0.005;

    /// <summary>The largest p99 over the reference's (plus <see cref="LatencySlackMs"/>) in H2 and A2.</summary>
    public const double P99Ratio = 1.25;

    /// <summary>Latency within this of the reference counts as equal, in milliseconds: sub-millisecond tails move with any scheduling change.</summary>
    public const double LatencySlackMs = 2;

    /// <summary>The least samples (completed requests per run) a p99 is judged on.</summary>
    public const long MinimumSamples = 100;

    /// <summary>A1: the least fraction of its offered load a compliant tenant completes, unless the full-fill static limit gives it less.</summary>
    public const double CompliantCompleted = 0.99;

    /// <summary>A3: the least fraction of its goodput under the full-fill static limit the aggressor keeps.</summary>
    public const double AggressorGoodput = 0.5;

    /// <summary>A3: the least fraction of the aggressor's losses refused at the entry.</summary>
    public const double AggressorRefused = 0.8;

    /// <summary>Judges H1 and H2 for one rate-controlled configuration against its reference.</summary>
    /// <param name="configuration">R's name, for the clauses.</param>
    /// <param name="rateControlled">R's runs, one per run seed.</param>
    /// <param name="reference">The reference's runs, paired with R's by index.</param>
    /// <returns>H1 and H2.</returns>
    public static IReadOnlyList<GuaranteeClause> Healthy(string configuration, IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> rateControlled, IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> reference)
    {
        RequirePaired(rateControlled, reference);
        var h1 = new Worst("H1", configuration);
        var h2 = new Worst("H2", configuration);
        foreach (var workflow in reference[0].Keys.Order(StringComparer.Ordinal))
        {
            var mine = Sum(rateControlled, workflow, o => o.Completed);
            var theirs = Sum(reference, workflow, o => o.Completed);
            var needed = theirs - Math.Max(CompletedSlackRequests, CompletedSlackFraction * theirs);
            h1.Add(needed > 0 ? mine / needed : double.PositiveInfinity, F($"{workflow}: completed {mine} vs {theirs} without rate control (at least {needed:F1})"));

            if (Median(reference.Select(r => (double)Get(r, workflow).Samples)) >= MinimumSamples)
            {
                var ratio = Median(Pairs(rateControlled, reference, workflow).Select(p => P99Over(p.Mine, p.Theirs.P99Ms + LatencySlackMs)));
                h2.Add(P99Ratio / ratio, F($"{workflow}: median p99 ratio {ratio:F3} (limit {P99Ratio}; p99 {MedianP99(rateControlled, workflow):F1} ms vs {MedianP99(reference, workflow):F1} ms without rate control)"));
            }
        }

        return [h1.Clause(), h2.Clause()];
    }

    /// <summary>Judges A1, A2 and A3 for one rate-controlled configuration against static limits under the same scheduler.</summary>
    /// <param name="configuration">R's name, for the clauses.</param>
    /// <param name="aggressor">The aggressive tenant's workflow.</param>
    /// <param name="compliant">The compliant tenants' workflows.</param>
    /// <param name="rateControlled">R's runs, one per run seed.</param>
    /// <param name="staticLimits">The static limits' runs by fill, ascending, each paired with R's by index; the last is the full fill.</param>
    /// <returns>A1, A2 and A3.</returns>
    public static IReadOnlyList<GuaranteeClause> Aggressor(
        string configuration,
        string aggressor,
        IReadOnlyList<string> compliant,
        IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> rateControlled,
        IReadOnlyList<StaticLimitRuns> staticLimits)
    {
        ArgumentNullException.ThrowIfNull(compliant);
        ArgumentNullException.ThrowIfNull(staticLimits);
        if (staticLimits.Count == 0)
        {
            throw new ArgumentException("At least one static limit is needed.", nameof(staticLimits));
        }

        foreach (var limit in staticLimits)
        {
            RequirePaired(rateControlled, limit.Runs);
        }

        var full = staticLimits[^1];
        var goodput = Sum(rateControlled, aggressor, o => o.Completed);
        var matched = staticLimits.FirstOrDefault(s => Sum(s.Runs, aggressor, o => o.Completed) >= goodput) ?? full;
        var a1 = new Worst("A1", configuration);
        var a2 = new Worst("A2", configuration);
        foreach (var workflow in compliant)
        {
            var offered = Sum(rateControlled, workflow, o => o.Offered);
            var completed = Sum(rateControlled, workflow, o => o.Completed);
            var underFull = Sum(full.Runs, workflow, o => o.Completed);
            var needed = Math.Min(CompliantCompleted * offered, underFull - 1);
            a1.Add(needed > 0 ? completed / needed : double.PositiveInfinity, F($"{workflow}: completed {completed} of {offered} offered, {underFull} under the static limit at fill {full.Fill:F2} (at least {needed:F1})"));

            if (Median(matched.Runs.Select(r => (double)Get(r, workflow).Samples)) >= MinimumSamples)
            {
                var ratio = Median(Pairs(rateControlled, matched.Runs, workflow).Select(p => P99Over(p.Mine, (P99Ratio * p.Theirs.P99Ms) + LatencySlackMs)));
                a2.Add(1 / ratio, F($"{workflow}: median p99 {MedianP99(rateControlled, workflow):F1} ms vs {MedianP99(matched.Runs, workflow):F1} ms under the static limit at fill {matched.Fill:F2} (aggressor goodput {goodput} vs {Sum(matched.Runs, aggressor, o => o.Completed)}); median ratio to 1.25x + 2 ms {ratio:F3}"));
            }
        }

        var a3 = new Worst("A3", configuration);
        var fullGoodput = Sum(full.Runs, aggressor, o => o.Completed);
        a3.Add(fullGoodput > 0 ? goodput / (AggressorGoodput * fullGoodput) : double.PositiveInfinity, F($"aggressor goodput {goodput} vs {fullGoodput} under the static limit at fill {full.Fill:F2} (at least {AggressorGoodput * 100:F0}%)"));
        var lost = Sum(rateControlled, aggressor, o => o.Offered) - goodput;
        var refused = Sum(rateControlled, aggressor, o => o.RefusedAtEntry);
        a3.Add(lost > 0 ? refused / (AggressorRefused * lost) : double.PositiveInfinity, F($"aggressor: {refused} of {lost} lost refused at the entry (at least {AggressorRefused * 100:F0}%)"));
        return [a1.Clause(), a2.Clause(), a3.Clause()];
    }

    /// <summary>The median; the mean of the middle two of an even count.</summary>
    /// <param name="values">The values; at least one.</param>
    /// <returns>The median.</returns>
    public static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        if (sorted.Length == 0)
        {
            throw new ArgumentException("The median of nothing.", nameof(values));
        }

        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    // A run that completed nothing has no p99: it is as bad as a p99 can be.
    private static double P99Over(WorkflowOutcome mine, double limit) =>
        mine.Samples == 0 ? double.PositiveInfinity : mine.P99Ms / limit;

    private static double MedianP99(IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> runs, string workflow) =>
        Median(runs.Select(r => Get(r, workflow).P99Ms));

    private static IEnumerable<(WorkflowOutcome Mine, WorkflowOutcome Theirs)> Pairs(IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> mine, IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> theirs, string workflow) =>
        mine.Select((run, k) => (Get(run, workflow), Get(theirs[k], workflow)));

    private static long Sum(IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> runs, string workflow, Func<WorkflowOutcome, long> value) =>
        runs.Sum(r => value(Get(r, workflow)));

    // A workflow a run did not offer (a static limit of zero removes the aggressor) did nothing in it.
    private static WorkflowOutcome Get(IReadOnlyDictionary<string, WorkflowOutcome> run, string workflow) =>
        run.TryGetValue(workflow, out var outcome) ? outcome : new WorkflowOutcome(0, 0, 0, 0, 0);

    private static void RequirePaired(IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> mine, IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> theirs)
    {
        ArgumentNullException.ThrowIfNull(mine);
        ArgumentNullException.ThrowIfNull(theirs);
        if (mine.Count == 0 || mine.Count != theirs.Count)
        {
            throw new ArgumentException(F($"Paired runs are needed: {mine.Count} rate-controlled, {theirs.Count} reference."));
        }
    }

    private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    /// <summary>The worst margin of a clause over the workflows it covers.</summary>
    private sealed class Worst(string name, string configuration)
    {
        private double _margin = double.PositiveInfinity;
        private string _detail = "nothing to judge";

        public void Add(double margin, string detail)
        {
            if (margin < _margin || (double.IsNaN(margin) && !double.IsNaN(_margin)))
            {
                _margin = margin;
                _detail = detail;
            }
        }

        public GuaranteeClause Clause() => new(name, configuration, _margin, _detail);
    }
}
