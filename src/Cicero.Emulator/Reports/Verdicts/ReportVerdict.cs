// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Reports.Verdicts;

/// <summary>
/// The report's verdict: per class of workflows, which configuration is best and by how much, and where the choice
/// depends on the goal (latency against goodput), plus a short summary for a reader who reads nothing else.
/// </summary>
/// <remarks>
/// Goodput is the share of offered requests completed; latency the p99 of completed requests. A configuration is best
/// for a workflow when its goodput is within <see cref="GoodputTolerance"/> of the highest and, among those, its p99
/// is lowest: a configuration that completes few requests quickly does not win on latency alone. When the lowest p99
/// overall belongs to a configuration outside that set and is lower by more than <see cref="LatencyMargin"/>, the
/// choice depends on the goal, and the verdict says so. Workflows whose configurations rank the same way form a class.
/// </remarks>
public sealed class ReportVerdict
{
    /// <summary>How far below the highest goodput (as a fraction of it) a configuration still counts as as good.</summary>
    public const double GoodputTolerance = 0.02;

    /// <summary>How much lower (as a fraction) a p99 must be to count as better.</summary>
    public const double LatencyMargin = 0.1;

    private ReportVerdict(IReadOnlyList<WorkflowVerdict> classes, IReadOnlyList<string> summary)
    {
        Classes = classes;
        Summary = summary;
    }

    /// <summary>Gets the verdict per class of workflows, in report order.</summary>
    public IReadOnlyList<WorkflowVerdict> Classes { get; }

    /// <summary>Gets the executive summary: a few sentences, best configuration first.</summary>
    public IReadOnlyList<string> Summary { get; }

    /// <summary>Judges the runs (one per configuration) of one scenario.</summary>
    /// <param name="runs">The runs.</param>
    /// <returns>The verdict; with one configuration there is nothing to compare, and the summary says so.</returns>
    public static ReportVerdict Of(IReadOnlyList<TopologyRunResult> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        if (runs.Count < 2)
        {
            return new ReportVerdict([], [runs.Count == 0 ? "No runs." : $"One configuration ({runs[0].Configuration}): nothing to compare; the tables below give its figures."]);
        }

        var judged = new List<(string Workflow, string Key, List<string> Best, string? LatencyBest, List<Score> Scores)>();
        foreach (var workflow in Charts.ReportFigures.WorkflowNames(runs))
        {
            var scores = runs
                .Select(r => r.Workflows.FirstOrDefault(w => w.Workflow == workflow) is { Offered: > 0 } w ? new Score(r.Configuration, w.CompletedFraction, w.LatencyMs.P99) : null)
                .OfType<Score>()
                .ToList();
            if (scores.Count < 2)
            {
                continue;
            }

            var ranked = Rank(scores);
            var best = ranked[0];
            if (ranked.All(s => Close(s, best)))
            {
                // Nothing to choose between: say so rather than crown a winner by a rounding error.
                judged.Add((workflow, "=", [Tie], null, ranked));
                continue;
            }

            var fastest = scores.Where(s => double.IsFinite(s.P99)).OrderBy(s => s.P99).FirstOrDefault();
            var latencyBest = fastest is not null && fastest.Configuration != best.Configuration && (!double.IsFinite(best.P99) || fastest.P99 < best.P99 * (1 - LatencyMargin))
                ? fastest.Configuration
                : null;
            // Configurations as good as the best (within the tolerances) share the verdict.
            var coBest = ranked.Where(s => Close(s, best)).Select(static s => s.Configuration).ToList();
            judged.Add((workflow, string.Join(">", ranked.Select(s => s.Configuration)) + "|" + string.Join("=", coBest) + "|" + latencyBest, coBest, latencyBest, ranked));
        }

        var classes = new List<WorkflowVerdict>();
        foreach (var group in judged.GroupBy(j => j.Key))
        {
            // Workflows rank alike but may live at different scales (11 ms and 9.8 s): a class holds those of like figures.
            foreach (var members in Clusters(group.ToList(), static m => m.Scores[0]))
            {
                var names = members.Select(m => m.Workflow).ToList();
                var first = members[0];
                classes.Add(new WorkflowVerdict(names, first.Best[0], first.LatencyBest, Sentence(names, [.. members.Select(m => m.Scores)], first.Best, first.LatencyBest))
                {
                    AsGood = first.Best,
                });
            }
        }

        return new ReportVerdict(classes, Summarize(classes, judged.Count));
    }

    /// <summary>The <see cref="WorkflowVerdict.Best"/> of a class where no configuration stands out.</summary>
    public const string Tie = "";

    private static bool Close(Score score, Score best) =>
        Math.Abs((double.IsNaN(score.Goodput) ? 0 : score.Goodput) - (double.IsNaN(best.Goodput) ? 0 : best.Goodput)) <= GoodputTolerance * Math.Max(1e-9, best.Goodput)
        && (score.P99 == best.P99 || (double.IsNaN(score.P99) && double.IsNaN(best.P99))
            || (double.IsFinite(score.P99) && double.IsFinite(best.P99) && score.P99 <= best.P99 * (1 + LatencyMargin)));

    private static List<List<T>> Clusters<T>(List<T> members, Func<T, Score> best)
    {
        var clusters = new List<List<T>>();
        foreach (var member in members)
        {
            var score = best(member);
            var home = clusters.FirstOrDefault(c => Alike(best(c[0]), score));
            if (home is null)
            {
                clusters.Add([member]);
            }
            else
            {
                home.Add(member);
            }
        }

        return clusters;

        static bool Alike(Score a, Score b) =>
            Math.Abs(a.Goodput - b.Goodput) <= 0.1 && (a.P99 == b.P99 || (a.P99 <= 2 * b.P99 && b.P99 <= 2 * a.P99));
    }

    private static List<Score> Rank(List<Score> scores)
    {
        var top = scores.Max(s => double.IsNaN(s.Goodput) ? 0 : s.Goodput);
        return [.. scores
            .OrderBy(s => (double.IsNaN(s.Goodput) ? 0 : s.Goodput) >= top * (1 - GoodputTolerance) ? 0 : 1)
            .ThenBy(s => double.IsFinite(s.P99) ? s.P99 : double.MaxValue)
            .ThenByDescending(s => s.Goodput)];
    }

    private static string Sentence(List<string> workflows, List<List<Score>> scores, List<string> bests, string? latencyBest)
    {
        var who = workflows.Count == 1 ? workflows[0] : string.Join(", ", workflows);
        var best = bests[0];
        if (best == Tie)
        {
            var all = scores.SelectMany(static list => list).ToList();
            return $"{who}: no configuration stands out (p99 {Range(all.Select(static s => s.P99), Ms)}, {Range(all.Select(static s => 100 * s.Goodput), Percent)} of offered requests completed under each).";
        }

        var others = scores[0].Select(s => s.Configuration).Where(c => !bests.Contains(c)).ToList();
        string P99(params string[] configurations) => Range(scores.SelectMany(list => list.Where(s => configurations.Contains(s.Configuration)).Select(static s => s.P99)), Ms);
        string Goodput(params string[] configurations) => Range(scores.SelectMany(list => list.Where(s => configurations.Contains(s.Configuration)).Select(static s => 100 * s.Goodput)), Percent);
        var vs = string.Join(" and ", others.Select(o => $"{P99(o)} under {o}"));
        var completes = string.Join(", ", others.Select(o => $"{Goodput(o)} under {o}"));
        var sentence = bests.Count == 1
            ? $"{who}: {best} is best, p99 {P99(best)} against {vs}; it completes {Goodput(best)} of offered requests ({completes})."
            : $"{who}: {string.Join(" and ", bests)} are best and as good as each other, p99 {P99([.. bests])} against {vs}; they complete {Goodput([.. bests])} of offered requests ({completes}).";
        if (latencyBest is not null)
        {
            sentence += $" The choice depends on the goal: {latencyBest} has the lowest p99 ({P99(latencyBest)}) but completes only {Goodput(latencyBest)}.";
        }

        return sentence;
    }

    private static List<string> Summarize(List<WorkflowVerdict> classes, int workflows)
    {
        if (classes.Count == 0)
        {
            return ["No workflow was offered requests under two or more configurations: nothing to compare."];
        }

        var summary = new List<string>();
        var ties = classes.Where(static c => c.Best == Tie).SelectMany(static c => c.Workflows).ToList();
        if (ties.Count == workflows)
        {
            return [$"No configuration stands out: for every workflow the configurations complete the same share of requests (within {100 * GoodputTolerance:0} points) with p99 latencies within {100 * LatencyMargin:0}% of each other."];
        }

        var wins = classes.Where(static c => c.Best != Tie).GroupBy(c => string.Join(" and ", c.AsGood)).Select(g => (Configuration: g.Key, Workflows: g.SelectMany(c => c.Workflows).ToList())).OrderByDescending(g => g.Workflows.Count).ToList();
        var (leader, led) = wins[0];
        var are = leader.Contains(" and ", StringComparison.Ordinal) ? "are" : "is";
        summary.Add(led.Count == workflows
            ? $"{leader} {are} the best configuration for every workflow ({string.Join(", ", led)}): the most requests completed and, among those, the lowest p99 latency."
            : $"{leader} {are} the best configuration for {led.Count} of {workflows} workflows ({string.Join(", ", led)}).");
        foreach (var (configuration, names) in wins.Skip(1))
        {
            summary.Add($"{configuration} {(configuration.Contains(" and ", StringComparison.Ordinal) ? "are equally good and best" : "is best")} for {string.Join(", ", names)}.");
        }

        if (ties.Count > 0)
        {
            summary.Add($"No configuration stands out for {string.Join(", ", ties)}.");
        }

        var split = classes.Where(c => c.DependsOnGoal).ToList();
        if (split.Count > 0)
        {
            summary.Add($"The choice depends on the goal for {string.Join(", ", split.SelectMany(c => c.Workflows))}: a configuration with fewer requests completed has a lower p99 (see the verdicts below).");
        }

        return summary;
    }

    private static string Range(IEnumerable<double> values, Func<double, string> format)
    {
        var finite = values.Where(double.IsFinite).ToList();
        if (finite.Count == 0)
        {
            return "–";
        }

        var (min, max) = (finite.Min(), finite.Max());
        var low = format(min);
        var high = format(max);
        if (low == high)
        {
            return low;
        }

        // One unit for both ends when they share it: 77–78 ms, 9.3–9.6 s, 54–58%.
        foreach (var unit in (string[])[" ms", " s", "%"])
        {
            if (low.EndsWith(unit, StringComparison.Ordinal) && high.EndsWith(unit, StringComparison.Ordinal))
            {
                return $"{low[..^unit.Length]}–{high}";
            }
        }

        return $"{low}–{high}";
    }

    /// <summary>Formats milliseconds for a reader: 77 ms, 3.1 s.</summary>
    public static string Ms(double ms) => ms switch
    {
        >= 10_000 => (ms / 1000).ToString("0", CultureInfo.InvariantCulture) + " s",
        >= 1000 => (ms / 1000).ToString("0.0", CultureInfo.InvariantCulture) + " s",
        >= 10 => ms.ToString("0", CultureInfo.InvariantCulture) + " ms",
        _ => ms.ToString("0.0", CultureInfo.InvariantCulture) + " ms",
    };

    private static string Percent(double percent) =>
        (percent is > 99.95 and < 100 ? "99.9" : percent.ToString(percent >= 99.5 && percent < 100 ? "0.0" : "0", CultureInfo.InvariantCulture)) + "%";

    private sealed record Score(string Configuration, double Goodput, double P99);
}
