// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Simulation.Topology;
using static Cicero.Emulator.Reproduction.Claims;

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// The embedded reproduction scenarios on the topology runner: dissertation §5.3.1 and §5.3.3-5.3.5, the C3 set-up as
/// a topology, Wu's Cassandra-like ring and Cake's consolidation. Each section is a table per configuration and
/// workflow plus the claims the paper makes, judged on the runs.
/// </summary>
/// <remarks>
/// Full size runs each scenario at its embedded length. Reduced size (CI) shortens each the way the scenario's own test
/// class does (the aggressor, the surge or the client steps earlier, fewer seconds) and judges the same claims on
/// windows moved with them.
/// </remarks>
public static class ScenarioStudy
{
    /// <summary>Gets the ids of the sections <see cref="Run"/> writes, in order.</summary>
    public static IReadOnlyList<string> SectionIds { get; } = ["5.3.1", "5.3.3", "5.3.4", "5.3.5", "c3-topology", "wu", "cake"];

    /// <summary>Runs every scenario section.</summary>
    /// <param name="settings">Progress output.</param>
    /// <returns>The sections.</returns>
    public static IReadOnlyList<ReproductionSection> Run(ReproductionSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        Func<ReproductionSettings, ReproductionSection>[] sections = [IsolationStudy.Run, LowLatency, Hotspot, QuantileKnob, C3Topology, WuStudy.Run, CakeStudy.Run];
        return [.. sections.Select((run, i) => (run, SectionIds[i])).Where(s => settings.Sections?.Contains(s.Item2) ?? true).Select(s => s.run(settings))];
    }

    private static ReproductionSection Section(string id, string preface, string table, List<ReproductionClaim> claims) =>
        new(id, preface + table + "\n" + ReproductionDocument.ClaimsTable(claims), claims);

    internal static double MeanLatencyIn(TopologyRunResult result, string workflow, int from, int to)
    {
        var points = result.TimeSeries.Where(p => p.Workflow == workflow && p.Second >= from && p.Second < to && p.Completed > 0).ToList();
        var completed = points.Sum(p => p.Completed);
        return completed == 0 ? double.NaN : points.Sum(p => p.MeanLatencyMs!.Value * p.Completed) / completed;
    }

    private static ReproductionSection LowLatency(ReproductionSettings settings)
    {
        // Reduced: 35 s, 40 clients until 15 s, then 200 at once, as LowLatencyTests runs it.
        var runs = ScenarioRuns.Run(settings, "low-latency", reduce: scenario =>
        {
            scenario.DurationSeconds = 35;
            scenario.WarmUpSeconds = 5;
            scenario.Workloads!.Single(w => w.Workflow == "T").Steps = [new() { AtSeconds = 15, Clients = 200 }];
        });
        static bool LowLatency(string w) => w.StartsWith("LL", StringComparison.Ordinal);
        (int Clients, int From, int To)[] windows = settings.Reduced
            ? [(40, 5, 15), (200, 20, 35)]
            : [(40, 5, 30), (80, 35, 50), (120, 55, 70), (160, 75, 90), (200, 95, 110)];
        double[] Met(string configuration, int from, int to) => runs.PerSeed(configuration, r => ScenarioRuns.CompletedIn(r, LowLatency, from, to));
        double Throughput(string configuration, int from, int to) =>
            runs.PerSeed(configuration, r => r.TimeSeries.Where(p => p.Workflow == "T" && p.Second >= from && p.Second < to).Sum(p => p.Completed) / (double)(to - from)).Average();
        var text = new StringBuilder("| throughput clients | deadlines met, baseline | deadlines met, Cicero | T throughput, baseline / Cicero |\n|---|---|---|---|\n");
        foreach (var (clients, from, to) in windows)
        {
            text.Append(CultureInfo.InvariantCulture, $"| {clients} | {Verdicts.Ci(Met("baseline", from, to), "P1")} | {Verdicts.Ci(Met("cicero", from, to), "P1")} | {Throughput("baseline", from, to):0} / {Throughput("cicero", from, to):0} req/s |\n");
        }

        var (fortyFrom, fortyTo) = (windows[0].From, windows[0].To);
        var (topFrom, topTo) = (windows[^1].From, windows[^1].To);
        var fortyBaseline = Met("baseline", fortyFrom, fortyTo);
        var fortyCicero = Met("cicero", fortyFrom, fortyTo);
        var topCicero = Met("cicero", topFrom, topTo);
        var topBaseline = Met("baseline", topFrom, topTo);
        var graceful = Verdicts.All(Verdicts.Above(topCicero, 0.8), Verdicts.Below(topBaseline, topCicero));
        var claims = new List<ReproductionClaim>
        {
            Verdicts.Claim("5.3.3.forty", "With 40 throughput clients both meet all deadlines (read as: above 99%)", "100%", F($"baseline {Verdicts.Ci(fortyBaseline, "P1")}, Cicero {Verdicts.Ci(fortyCicero, "P1")}"),
                Verdicts.All(Verdicts.Above(fortyBaseline, 0.99), Verdicts.Above(fortyCicero, 0.99)), "One of them meets 99% or fewer, on the interval over seeds."),
            Verdicts.Claim("5.3.3.two-hundred", "At 200 clients Cicero degrades gracefully (about 80% met), the baseline worse", "≈ 80% vs less", F($"Cicero {Verdicts.Ci(topCicero, "P1")}, baseline {Verdicts.Ci(topBaseline, "P1")}"),
                graceful == ReproductionVerdict.Reproduced ? ReproductionVerdict.Beaten : graceful,
                graceful == ReproductionVerdict.Reproduced
                    ? "Above the paper's 80%: in the simulation DRR costs nothing and there are no locks or thread switches to block behind, the head-of-line sources the paper names."
                    : "Cicero meets 80% or fewer, or the baseline no fewer, on the interval over seeds."),
        };
        var preface = settings.Reduced ? "`low-latency`, reduced: 35 s, 40 throughput clients until 15 s, then 200.\n\n" : "`low-latency`, 110 s: 40 throughput clients until 30 s, then 80, 120, 160 and 200 every 20 s; each window skips its first 5 s.\n\n";
        return Section("5.3.3", preface + F($"Deadlines met: mean over seeds 1-{runs.Seeds.Length} ± the 95% interval.\n\n"), text + "\n" + runs.Table(w => !LowLatency(w) || w == "LL1"), claims);
    }

    private static ReproductionSection Hotspot(ReproductionSettings settings)
    {
        // Reduced: 40 s, B from 10 s, doubling at 20 s, as HotspotTests runs it.
        var (duration, enters, doubles) = settings.Reduced ? (40, 10, 20) : (100, 40, 60);
        var runs = ScenarioRuns.Run(settings, "hotspot", reduce: scenario =>
        {
            scenario.DurationSeconds = duration;
            scenario.WarmUpSeconds = 3;
            var b = scenario.Workloads!.Single(w => w.Workflow == "B");
            b.StartSeconds = enters;
            b.Steps![0].AtSeconds = doubles;
        });
        var start = settings.Reduced ? 3 : 10;
        var windows = new (int From, int To)[] { (start, enters), (enters, enters + 2), (enters + 2, doubles), (doubles, doubles + 2), (doubles + 2, duration - 20), (duration - 20, duration) };
        if (settings.Reduced)
        {
            windows[^2] = (doubles + 2, duration - 10);
            windows[^1] = (duration - 10, duration);
        }

        double[] MeanIn(string configuration, (int From, int To) w) => runs.PerSeed(configuration, r => MeanLatencyIn(r, "A", w.From, w.To));
        var text = new StringBuilder("| A's mean latency (ms), mean over seeds |" + string.Concat(windows.Select(w => F($" [{w.From}, {w.To}) |"))) + "\n|---|" + string.Concat(Enumerable.Repeat("---|", windows.Length)) + "\n");
        foreach (var configuration in new[] { "baseline", "rc" })
        {
            text.Append(CultureInfo.InvariantCulture, $"| {configuration} |{string.Concat(windows.Select(w => F($" {MeanIn(configuration, w).Average():0.0} |")))}\n");
        }

        var before = MeanIn("rc", windows[0]);
        var after = MeanIn("rc", windows[^1]);
        var baselineBefore = MeanIn("baseline", windows[0]);
        var baselineAfter = MeanIn("baseline", windows[^1]);
        var droppedCd = runs.PerSeed("rc", r => (double)(r["C"].Dropped + r["D"].Dropped) / (r["C"].Offered + r["D"].Offered));
        var claims = new List<ReproductionClaim>
        {
            Verdicts.Claim("5.3.4.recovers", "With rate control A's latency returns to its expected level once σ_B adapts (read as: within 1.5 × before B); in the baseline it stays inflated (above 5 ×)", "recovers",
                F($"rc {before.Average():0.0} → {after.Average():0.0} ms (× {Verdicts.Ci(Verdicts.Ratio(after, before), "0.00")}); baseline {baselineBefore.Average():0.0} → {baselineAfter.Average():0.0} ms (× {Verdicts.Ci(Verdicts.Ratio(baselineAfter, baselineBefore), "0.0")})"),
                Verdicts.All(Verdicts.Below(Verdicts.Ratio(after, before), 1.5), Verdicts.Above(Verdicts.Ratio(baselineAfter, before), 5)), "On the interval over seeds A's latency under rc does not return within 1.5 × or the baseline's does not stay above 5 ×."),
            Verdicts.Claim("5.3.4.cd", "C and D are not throttled (read as: under 0.1% dropped)", "not throttled", F($"C and D dropped {Verdicts.Ci(droppedCd, "P2")} under rc"),
                Verdicts.Below(droppedCd, 0.001), "C and D lose 0.1% or more of their requests under rc, on the interval over seeds."),
        };
        return Section("5.3.4", F($"`hotspot`, {duration} s; B from {enters} s, doubling at {doubles} s.\n\n"), text + "\n" + runs.Table(), claims);
    }

    private static ReproductionSection QuantileKnob(ReproductionSettings settings)
    {
        var (duration, warmUp) = settings.Reduced ? (30, 5) : (60, 10);
        var runs = ScenarioRuns.Run(settings, "quantile-knob", reduce: scenario =>
        {
            scenario.DurationSeconds = duration;
            scenario.WarmUpSeconds = warmUp;
        });
        double[] Cv(string configuration, string service) => runs.PerSeed(configuration, r =>
        {
            var samples = r.Rates.Where(x => x.Workflow == "S" && x.Service == service && x.Second > warmUp && x.TotalRate is not null).Select(x => x.TotalRate!.Value).ToArray();
            var mean = samples.Average();
            return Math.Sqrt(samples.Average(x => (x - mean) * (x - mean))) / mean;
        });
        double[] Disk(string configuration) => runs.PerSeed(configuration, r => r.Resources.Single(u => u.Service == "bs" && u.Resource == "disk").Mean);
        var text = new StringBuilder(F($"Means over seeds 1-{runs.Seeds.Length} ± the 95% interval.\n\n| | scan throughput | BS disk busy | Σσ CV at FEs | at PSs | at BSs |\n|---|---|---|---|---|---|\n"));
        foreach (var q in new[] { "q0", "q0.5", "q1" })
        {
            text.Append(CultureInfo.InvariantCulture, $"| {q} | {runs.PerSeed(q, r => r["S"].Throughput).Average():0} req/s | {Verdicts.Ci(Disk(q), "P0")} | {Verdicts.Ci(Cv(q, "fe"), "0.00")} | {Verdicts.Ci(Cv(q, "ps"), "0.00")} | {Verdicts.Ci(Cv(q, "bs"), "0.00")} |\n");
        }

        var claims = new List<ReproductionClaim>
        {
            Verdicts.Claim("5.3.5.oscillation", "q = 0.5 oscillates less at the FEs than q = 0 or q = 1", "least oscillation", F($"CV q0 {Verdicts.Ci(Cv("q0", "fe"), "0.00")}, q0.5 {Verdicts.Ci(Cv("q0.5", "fe"), "0.00")}, q1 {Verdicts.Ci(Cv("q1", "fe"), "0.00")}"),
                Verdicts.All(Verdicts.Below(Cv("q0.5", "fe"), Cv("q0", "fe")), Verdicts.Below(Cv("q0.5", "fe"), Cv("q1", "fe"))), "q = 0.5's lead over q = 0 or q = 1 is not sure on the interval over seeds (seed by seed)."),
            Verdicts.Claim("5.3.5.utilisation", "q = 0 leaves the BSs underused, q = 1 congests them", "low → high", F($"disk busy {Verdicts.Ci(Disk("q0"), "P0")}, {Verdicts.Ci(Disk("q0.5"), "P0")}, {Verdicts.Ci(Disk("q1"), "P0")}"),
                Verdicts.All(Verdicts.Below(Disk("q0"), Disk("q0.5")), Verdicts.Below(Disk("q0.5"), Disk("q1"))), "The disks' busy share does not rise with q on the interval over seeds (seed by seed)."),
        };
        return Section("5.3.5", F($"`quantile-knob`, {duration} s, measured after {warmUp} s;") + " CV is the coefficient of variation of the per-second Σσ of the scan workflow.\n\n", text.ToString(), claims);
    }

    private static ReproductionSection C3Topology(ReproductionSettings settings)
    {
        var runs = ScenarioRuns.Run(settings, "c3-simulation", reduce: scenario =>
        {
            scenario.DurationSeconds = 2;
            scenario.WarmUpSeconds = 1;
            scenario.Configurations = [.. scenario.Configurations!.Where(c => c.Name is "c3" or "least-outstanding")];
        });
        var c3P99 = runs.PerSeed("c3", r => r["read"].LatencyMs.P99);
        var lorP99 = runs.PerSeed("least-outstanding", r => r["read"].LatencyMs.P99);
        var c3Mean = runs.PerSeed("c3", r => r["read"].LatencyMs.Mean);
        var lorMean = runs.PerSeed("least-outstanding", r => r["read"].LatencyMs.Mean);
        var claims = new List<ReproductionClaim>
        {
            Verdicts.Claim("c3-topology.beats-lor", "C3 beats least outstanding at the tail and on average (T = 500 ms)", "C3 below LOR", F($"p99 {Verdicts.Ci(c3P99, "0")} vs {Verdicts.Ci(lorP99, "0")} ms; mean {Verdicts.Ci(c3Mean, "0.0")} vs {Verdicts.Ci(lorMean, "0.0")} ms"),
                Verdicts.All(Verdicts.Below(c3P99, lorP99), Verdicts.Below(c3Mean, lorMean)), "C3's lead over LOR on the p99 or the mean is not sure on the interval over seeds (seed by seed)."),
        };
        return Section("c3-topology", settings.Reduced ? "`c3-simulation` on the topology runner, reduced: 2 s, 1 s warm-up, C3 and LOR only, T = 500 ms.\n\n" : "`c3-simulation` on the topology runner, 8 s, 2 s warm-up, T = 500 ms.\n\n", runs.Table(), claims);
    }
}
