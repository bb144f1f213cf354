// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Benchmarks.Outcome;

/// <summary>Prints the harness's table: per configuration and variant, means and ratios to round_robin with 95% CIs.</summary>
internal static class OutcomeSummary
{
    public const string Baseline = "round_robin";

    public static void Print(IReadOnlyList<OutcomeRun> runs, string[] variants)
    {
        foreach (var group in runs.GroupBy(r => r.Configuration))
        {
            var configuration = BalancerOutcome.Configurations.First(c => c.Name == group.Key);
            Console.WriteLine();
            Console.WriteLine($"## {configuration.Name}: {configuration.Description}");
            Console.WriteLine("| variant | p50 ms | p99 ms | p999 ms | p99 / rr (95% CI) | p999 / rr (95% CI) | calls/s | share per replica (min-max %) | errors | stuck | away / back ms |");
            Console.WriteLine("|---|---|---|---|---|---|---|---|---|---|---|");
            foreach (var variant in variants)
            {
                var mine = group.Where(r => r.Variant == variant).OrderBy(r => r.Repetition).ToArray();
                if (mine.Length == 0)
                {
                    continue;
                }

                var baseline = group.Where(r => r.Variant == Baseline).OrderBy(r => r.Repetition).ToArray();
                var shares = Enumerable.Range(0, mine[0].Result.PerReplica.Length).Select(i =>
                {
                    var s = mine.Select(r => 100.0 * r.Result.PerReplica[i] / Math.Max(1, r.Result.PerReplica.Sum())).ToArray();
                    return F($"{s.Min():F1}-{s.Max():F1}");
                });
                var moves = string.Join("; ", mine.Where(r => r.MovedAwayMs is not null || r.CameBackMs is not null).Select(r => F($"{Ms(r.MovedAwayMs)}/{Ms(r.CameBackMs)}")));
                Console.WriteLine(F($"| {variant} | {mine.Average(r => r.Result.P50Ms):F2} | {mine.Average(r => r.Result.P99Ms):F2} | {mine.Average(r => r.Result.P999Ms):F2} | {Ratio(mine, baseline, r => r.Result.P99Ms)} | {Ratio(mine, baseline, r => r.Result.P999Ms)} | {mine.Average(r => r.Result.CallsPerSecond):F0} | {string.Join(" / ", shares)} | {mine.Sum(r => r.Result.Errors)} | {mine.Sum(r => r.Result.Stuck)} | {moves} |"));
            }
        }
    }

    private static string Ms(double? value) => value is { } v ? v.ToString("F0", CultureInfo.InvariantCulture) : "never";

    /// <summary>The mean of the per-repetition ratios to the baseline's run of the same repetition, with a t-based 95% CI.</summary>
    private static string Ratio(OutcomeRun[] mine, OutcomeRun[] baseline, Func<OutcomeRun, double> metric)
    {
        var ratios = mine.Join(baseline, r => r.Repetition, b => b.Repetition, (r, b) => metric(r) / metric(b)).ToArray();
        if (ratios.Length == 0)
        {
            return "n/a";
        }

        var mean = ratios.Average();
        if (ratios.Length == 1)
        {
            return F($"{mean:F2}");
        }

        var sd = Math.Sqrt(ratios.Sum(x => (x - mean) * (x - mean)) / (ratios.Length - 1));
        double[] t = [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26];
        var half = (ratios.Length - 2 < t.Length ? t[ratios.Length - 2] : 1.96) * sd / Math.Sqrt(ratios.Length);
        return F($"{mean:F2} ± {half:F2}");
    }

    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
