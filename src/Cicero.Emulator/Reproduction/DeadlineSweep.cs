// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Traces.Importers;
using Cicero.Emulator.Traces.Replay;
using static Cicero.Emulator.Reproduction.Claims;

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// Table 5.4 as a sweep: permits per resource × public traces × the same seeds for every configuration, closed loop at
/// the paper's 100 and 250 clients. Each cell's verdicts come from 95% intervals over the seeds of paired differences.
/// </summary>
public static class DeadlineSweep
{
    /// <summary>Gets the permits per resource the sweep runs: 4 puts the baseline's p99 LND in the paper's regime (above 10), 16 is the closed-loop table's.</summary>
    public static IReadOnlyList<int> Permits { get; } = [4, 8, 16];

    /// <summary>Gets the closed-loop client counts of each cell.</summary>
    public static IReadOnlyList<int> Clients { get; } = [100, 250];

    /// <summary>The fewest requests a trace is played back to back to when its repeats are not given: the block sample's 4 × 779.</summary>
    public const int MinimumRequests = 3000;

    /// <summary>Runs the sweep over <see cref="ReproductionSettings.SweepTraces"/>.</summary>
    /// <param name="settings">The traces and the seeds (<see cref="ReproductionSettings.SweepSeeds"/>).</param>
    /// <returns>The section deadline-sweep; none without traces.</returns>
    public static IReadOnlyList<ReproductionSection> Run(ReproductionSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var traces = settings.SweepTraces.Where(t => File.Exists(t.Path)).ToList();
        if (traces.Count == 0)
        {
            return [];
        }

        traces = [.. traces.Select(t => t.Repeats > 0 ? t : t with { Repeats = RepeatsFor(t) })];
        var seeds = Enumerable.Range(1, settings.SweepSeeds).ToArray();
        var cells = new List<SweepCell>();
        var sources = new StringBuilder(DropSources.Header);
        foreach (var trace in traces)
        {
            foreach (var permits in settings.Reduced ? [Permits[0], Permits[^1]] : Permits)
            {
                settings.Progress?.WriteLine(F($"  deadline sweep: {trace.Label}, {permits} permits, {seeds.Length} seeds"));
                var runs = seeds.Select(seed => DeadlineExperiment.Run(Plan(trace, permits), new DeadlineExperimentOptions
                {
                    LoadLevels = [.. Clients.Select(c => (double)c)],
                    ClosedLoop = true,
                    Seed = seed,
                })).ToArray();
                var added = Clients.Select(c => new SweepCell(trace.Label, permits, c, runs)).ToList();
                cells.AddRange(added);

                // Where a cell's rate control loses goodput (and, for the record, the block sample's heaviest cell), the drop
                // sources switched off in turn on the same seeds.
                foreach (var cell in added.Where(c => c.RcGoodput.Any(g => !g.AtLeast) || (trace.Format == "meta-block" && c.Permits == Permits[0] && c.Clients == Clients[^1])))
                {
                    settings.Progress?.WriteLine(F($"  deadline sweep: drop sources at {trace.Label}, {permits} permits, {cell.Clients} clients"));
                    sources.Append(DropSources.Rows(trace.Label, permits, cell.Clients, () => Plan(trace, permits), seeds));
                }
            }
        }

        return [Section(cells, traces, seeds.Length, sources.ToString())];
    }

    private static int RepeatsFor(SweepTrace trace)
    {
        var requests = TraceImport.ReadFile(TraceImport.GetImporter(trace.Format), trace.Path).Count();
        return requests == 0 ? 1 : (MinimumRequests + requests - 1) / requests;
    }

    private static TraceReplayPlan Plan(SweepTrace trace, int permits)
    {
        var importer = TraceImport.GetImporter(trace.Format);
        return DeadlineExperiment.UseResources(TraceReplayPlanner.Create(TraceRepetition.BackToBack(() => TraceImport.ReadFile(importer, trace.Path), trace.Repeats)), permits);
    }

    private static ReproductionSection Section(List<SweepCell> cells, List<SweepTrace> traces, int seeds, string sources)
    {
        var text = new StringBuilder(F($"Closed loop, k = 4, seeds 1-{seeds} for every configuration; each figure is the mean over seeds ± the half-width of its 95% interval (Student's t). Verdicts come from the interval of the seed-by-seed difference: **holds** when it excludes zero on the claimed side, **fails** when it excludes zero on the other, **tie** when it contains zero.\n\n"));
        text.Append("Traces: ").Append(string.Join("; ", traces.Select(t => F($"`{Path.GetFileName(t.Path)}` ({t.Format}, {t.Repeats} × back to back)")))).Append('.');
        if (!traces.Any(t => Path.GetFileName(t.Path) == "block_traces_2.csv"))
        {
            text.Append(" CacheLib's second block sample, `block_traces_2.csv`, is not among the shared public traces, so it is not in this table (`--sweep-trace meta-block:PATH` adds it).");
        }

        text.Append("\n\n");
        text.Append("| trace | permits | clients | p99 LND Baseline | FIFO+RC | EDF+RC | LSTF+RC | LSTF+RC dropped | goodput Baseline | LSTF+RC | EDF+RC | FIFO+RC | LSTF+RC below EDF+RC | RC goodput ≥ baseline's (points; LSTF · EDF · FIFO) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        foreach (var cell in cells)
        {
            text.Append(CultureInfo.InvariantCulture, $"| {cell.Trace} | {cell.Permits} | {cell.Clients} | {cell.Lnd("Baseline").ToString("0.00")} | {cell.Lnd("FIFO+RC").ToString("0.00")} | {cell.Lnd("EDF+RC").ToString("0.00")} | {cell.Lnd("LSTF+RC").ToString("0.00")} | {cell.Dropped("LSTF+RC").ToString("P1")} | {cell.Goodput("Baseline").ToString("P1")} | {cell.Goodput("LSTF+RC").ToString("P1")} | {cell.Goodput("EDF+RC").ToString("P1")} | {cell.Goodput("FIFO+RC").ToString("P1")} | {Word(cell.LstfBelowEdf)} | {cell.RcGoodputText} |\n");
        }

        var claims = new List<ReproductionClaim>();
        var top = cells.Where(c => c.Clients == Clients[^1]).ToList();
        var lstfWins = top.Count(c => c.LstfBelowEdf == ReproductionVerdict.Reproduced);
        var lstfLoses = top.Count(c => c.LstfBelowEdf == ReproductionVerdict.Missed);
        var notBelow = top.Where(c => c.LstfBelowEdf != ReproductionVerdict.Reproduced).Select(c => F($"{c.Trace} at {c.Permits} permits ({Word(c.LstfBelowEdf)})")).ToList();
        claims.Add(new ReproductionClaim(
            "deadline-sweep.lstf-below-edf", F($"LSTF+RC's p99 LND is below EDF+RC's (every cell at {Clients[^1]} clients)"), "1.82 vs 2.15",
            F($"holds in {lstfWins} of {top.Count} cells, fails in {lstfLoses}, tie in {top.Count - lstfWins - lstfLoses}"),
            lstfWins == top.Count ? ReproductionVerdict.Reproduced : lstfLoses > 0 ? ReproductionVerdict.Missed : ReproductionVerdict.Tie,
            notBelow.Count == 0 ? string.Empty : "LSTF does not beat EDF in " + string.Join(", ", notBelow) + ". Deadlines are k × the time alone and LSTF's slack subtracts an estimate close to that time, so LSTF orders requests almost as EDF does; under heavy overload it serves the requests with the most work left first, which EDF does not.",
            Checked: false));
        var lstfGoodput = cells.Count(c => c.RcGoodput[0].AtLeast);
        var allGoodput = cells.Count(c => c.RcGoodput.All(g => g.AtLeast));
        var losing = cells.SelectMany(c => c.RcGoodput.Where(g => !g.AtLeast).Select(g => F($"{g.Name} at {c.Trace}, {c.Permits} permits, {c.Clients} clients ({g.Delta.Mean * 100:+0.0;-0.0;0.0} points)"))).ToList();
        claims.Add(new ReproductionClaim(
            "deadline-sweep.rc-goodput", "Rate control's goodput is at least the baseline's in every cell (a tie counts as at least)", "(implied: RC drops only what would miss)",
            F($"LSTF+RC: {lstfGoodput} of {cells.Count} cells; all three RC configurations: {allGoodput} of {cells.Count}"),
            allGoodput == cells.Count ? ReproductionVerdict.Reproduced : ReproductionVerdict.Missed,
            losing.Count == 0 ? string.Empty : "Below the baseline: " + string.Join("; ", losing) + ". See the drop-source table.",
            Checked: false));
        var regime = top.Where(c => c.Lnd("Baseline").Mean >= 10).ToList();
        var regimeHolds = regime.Count(c => c.Lnd("LSTF+RC").High <= 1.82);
        claims.Add(new ReproductionClaim(
            "deadline-sweep.lstf-1.82", "LSTF+RC's p99 LND is at most 1.82 where the baseline's is in the paper's regime (p99 LND ≥ 10)", "1.82 (baseline 19.71)",
            F($"{regimeHolds} of {regime.Count} such cells (upper end of the interval ≤ 1.82)"),
            regime.Count == 0 ? ReproductionVerdict.Tie : regimeHolds == regime.Count ? ReproductionVerdict.Reproduced : ReproductionVerdict.Missed,
            regime.Count == 0 ? "No cell puts the baseline in the paper's regime." : string.Empty,
            Checked: false));
        text.Append("\nWhere a rate-controlled configuration's goodput is below the baseline's (the interval of the difference below zero), and in the block sample's heaviest cell for the record: LSTF+RC with each drop source switched off in turn, same seeds; ± is the 95% interval. The admission test is the drop policy, on arrival and at the request's turn at the rate limiter:\n\n").Append(sources);
        return new ReproductionSection("deadline-sweep", text + "\n" + ReproductionDocument.ClaimsTable(claims), claims);
    }

    private static string Word(ReproductionVerdict verdict) => verdict switch
    {
        ReproductionVerdict.Reproduced or ReproductionVerdict.Beaten => "holds",
        ReproductionVerdict.Missed => "**fails**",
        _ => "tie",
    };

    /// <summary>One trace, permits and client count over the seeds.</summary>
    private sealed class SweepCell(string trace, int permits, int clients, DeadlineExperimentResult[] runs)
    {
        public string Trace => trace;

        public int Permits => permits;

        public int Clients => clients;

        public bool LstfGoodputBelowBaseline => SeedInterval.OfDifference(Values("LSTF+RC", r => r.Goodput), Values("Baseline", r => r.Goodput)).High < 0;

        public ReproductionVerdict LstfBelowEdf => SeedInterval.OfDifference(Values("LSTF+RC", r => r.LndP99), Values("EDF+RC", r => r.LndP99)).BelowZero();

        /// <summary>Each RC configuration's goodput minus the baseline's, seed by seed, and its verdict on "at least the baseline's" (a tie counts as at least).</summary>
        public (string Name, SeedInterval Delta, bool AtLeast)[] RcGoodput => [.. DeadlineExperiment.DefaultNames.Skip(1).Reverse()
            .Select(name => SeedInterval.OfDifference(Values(name, r => r.Goodput), Values("Baseline", r => r.Goodput)) is var d ? (name, d, d.High >= 0) : default)];

        public string RcGoodputText => string.Join(" · ", RcGoodput.Select(g => F($"{g.Name[..g.Name.IndexOf('+', StringComparison.Ordinal)]} {g.Delta.Mean * 100:+0.0;-0.0;0.0} {(g.AtLeast ? "holds" : "**fails**")}")));

        public SeedInterval Lnd(string configuration) => SeedInterval.Of(Values(configuration, r => r.LndP99));

        public SeedInterval Goodput(string configuration) => SeedInterval.Of(Values(configuration, r => r.Goodput));

        public SeedInterval Dropped(string configuration) => SeedInterval.Of(Values(configuration, r => r.DropFraction));

        private double[] Values(string configuration, Func<DeadlineExperimentRow, double> figure) => [.. runs.Select(r => figure(r[clients, configuration]))];
    }
}
