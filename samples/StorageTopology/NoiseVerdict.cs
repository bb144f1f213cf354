// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Reports.Verdicts;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.StorageTopology;

/// <summary>
/// The verdict over repeated runs (several seeds, or repeated live runs): a configuration wins a workflow only when it
/// beats every other by more than the spread of its runs, and wins overall only when it wins some workflow and no other
/// configuration beats it on any; otherwise the runs tie within noise.
/// </summary>
/// <remarks>
/// A beats B on a workflow when A's lowest goodput (share of offered requests completed) is above B's highest by more
/// than <see cref="ReportVerdict.GoodputTolerance"/> of it; or, when neither beats the other on goodput, when A's
/// highest p99 is below B's lowest by more than <see cref="ReportVerdict.LatencyMargin"/>. So the ranges over runs must
/// not overlap, and the gap must also clear the single-run report's tolerances (one run has no spread to go by). A
/// workflow nothing completed under a configuration counts as goodput 0 with no p99; a workflow offered nothing under
/// a configuration is left out of the comparison for it.
/// </remarks>
internal sealed class NoiseVerdict
{
    /// <summary>The last line's text when no configuration wins.</summary>
    public const string NoWinner = "none (tie within noise)";

    private NoiseVerdict(IReadOnlyList<WorkflowSpread> workflows, string? winner, string? hostLimited)
    {
        Workflows = workflows;
        Winner = winner;
        HostLimited = hostLimited;
    }

    /// <summary>Gets the per-workflow spread and winner, in report order.</summary>
    public IReadOnlyList<WorkflowSpread> Workflows { get; }

    /// <summary>Gets the overall winner, or <see langword="null"/> for a tie within noise.</summary>
    public string? Winner { get; }

    /// <summary>Gets why no winner is named because the host was the bottleneck (live runs), or <see langword="null"/>.</summary>
    public string? HostLimited { get; }

    /// <summary>Gets the last line the command prints: <c>winner: NAME</c> or <c>winner: none (tie within noise)</c>.</summary>
    public string LastLine => "winner: " + (Winner ?? NoWinner);

    /// <summary>Judges the runs.</summary>
    /// <param name="runs">Per configuration (in order), its runs (one per seed or repetition).</param>
    /// <param name="hostLimited">When not null, the host was saturated: no winner is named and this says why.</param>
    /// <returns>The verdict.</returns>
    public static NoiseVerdict Of(IReadOnlyList<(string Configuration, IReadOnlyList<TopologyRunResult> Runs)> runs, string? hostLimited = null)
    {
        var workflows = new List<string>();
        foreach (var run in runs.SelectMany(static r => r.Runs))
        {
            foreach (var w in run.Workflows)
            {
                if (!workflows.Contains(w.Workflow))
                {
                    workflows.Add(w.Workflow);
                }
            }
        }

        var spreads = new List<WorkflowSpread>();
        foreach (var workflow in workflows)
        {
            var scores = new List<Spread>();
            foreach (var (configuration, list) in runs)
            {
                var seen = list.Select(r => r.Workflows.FirstOrDefault(w => w.Workflow == workflow)).Where(static w => w is { Offered: > 0 }).ToList();
                if (seen.Count == 0)
                {
                    continue;
                }

                var goodput = seen.Select(static w => double.IsFinite(w!.CompletedFraction) ? w.CompletedFraction : 0).ToList();
                var p99 = seen.Select(static w => w!.LatencyMs.P99).Where(double.IsFinite).ToList();
                scores.Add(new Spread(configuration, seen.Count, goodput.Min(), goodput.Max(), goodput.Average(), p99.Count == seen.Count ? p99.Min() : double.NaN, p99.Count == seen.Count ? p99.Max() : double.NaN, p99.Count > 0 ? p99.Average() : double.NaN));
            }

            var undominated = scores.Where(s => !scores.Any(o => Beats(o, s))).Select(static s => s.Configuration).ToList();
            var winner = scores.Count >= 2 && undominated.Count == 1 ? undominated[0] : null;
            spreads.Add(new WorkflowSpread(workflow, scores, winner, undominated));
        }

        var compared = spreads.Where(static w => w.Configurations.Count >= 2).ToList();
        var winners = compared.Select(static w => w.Winner).OfType<string>().Distinct(StringComparer.Ordinal).ToList();
        var overall = hostLimited is null && winners.Count == 1 && compared.All(w => w.Undominated.Contains(winners[0])) ? winners[0] : null;
        return new NoiseVerdict(spreads, overall, hostLimited);
    }

    /// <summary>Writes the verdict as sentences: one per workflow with its spread, then the overall verdict.</summary>
    /// <returns>The lines, without the last <c>winner:</c> line.</returns>
    public IReadOnlyList<string> Sentences()
    {
        var lines = new List<string>();
        foreach (var w in Workflows)
        {
            var figures = string.Join("; ", w.Configurations.Select(static s => s.Describe()));
            lines.Add(w.Configurations.Count < 2
                ? $"{w.Workflow}: nothing to compare ({figures})."
                : w.Winner is { } best
                    ? $"{w.Workflow}: {best} wins beyond the spread over runs ({figures})."
                    : $"{w.Workflow}: tie within noise among {string.Join(", ", w.Undominated)} ({figures}).");
        }

        var runs = Workflows.SelectMany(static w => w.Configurations).Select(static s => s.Runs).DefaultIfEmpty(0).Min();
        if (HostLimited is not null)
        {
            lines.Add("No winner: the host itself was the bottleneck. " + HostLimited);
        }
        else if (runs < 2)
        {
            lines.Add("One run per configuration: no spread to judge noise by, so only differences beyond the report's tolerances count (run several seeds with --seeds).");
        }

        return lines;
    }

    private static bool Beats(Spread a, Spread b)
    {
        if (a.GoodputMin > b.GoodputMax + (ReportVerdict.GoodputTolerance * Math.Max(a.GoodputMin, 1e-9)))
        {
            return true;
        }

        var goodputTie = !(b.GoodputMin > a.GoodputMax + (ReportVerdict.GoodputTolerance * Math.Max(b.GoodputMin, 1e-9)));
        return goodputTie && double.IsFinite(a.P99Max) && double.IsFinite(b.P99Min) && a.P99Max < b.P99Min * (1 - ReportVerdict.LatencyMargin);
    }

    /// <summary>One workflow's figures per configuration and its winner.</summary>
    internal sealed record WorkflowSpread(string Workflow, IReadOnlyList<Spread> Configurations, string? Winner, IReadOnlyList<string> Undominated);

    /// <summary>A configuration's range over its runs: goodput (fraction) and p99 (ms; NaN when some run completed nothing).</summary>
    internal sealed record Spread(string Configuration, int Runs, double GoodputMin, double GoodputMax, double GoodputMean, double P99Min, double P99Max, double P99Mean)
    {
        /// <summary>Describes the range for a reader: "rc 97–99% p99 40–52 ms".</summary>
        public string Describe()
        {
            var goodput = Range(100 * GoodputMin, 100 * GoodputMax, static v => v.ToString("0.#", CultureInfo.InvariantCulture)) + "%";
            var p99 = double.IsNaN(P99Mean) ? "no p99 (nothing completed)"
                : double.IsNaN(P99Min) ? $"p99 mean {ReportVerdict.Ms(P99Mean)} (some runs completed nothing)"
                : "p99 " + Range(P99Min, P99Max, ReportVerdict.Ms);
            return $"{Configuration} {goodput} completed, {p99}";
        }

        private static string Range(double min, double max, Func<double, string> format) =>
            format(min) == format(max) ? format(min) : $"{format(min)}–{format(max)}";
    }
}
