// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Traces.Importers;
using Cicero.Emulator.Traces.Replay;
using Cicero.Policies.Scheduling;
using static Cicero.Emulator.Reproduction.Claims;

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// Table 5.4 (dissertation §5.3.2) on the public Meta block-trace sample: closed loop at the paper's 100-250 clients
/// with goodput, and the open-loop variant at speed-ups of the recorded rate.
/// </summary>
public static class DeadlineStudy
{
    /// <summary>Permits per resource of the closed-loop topology: 100 clients run it below saturation, 250 above.</summary>
    public const int ClosedLoopPermits = 16;

    /// <summary>How many times the sample is played back to back (a 779-request sample is short for rate control to act).</summary>
    public const int Repeats = 4;

    /// <summary>Runs both tables.</summary>
    /// <param name="settings">Where the trace is; the size does not change this study (a run takes seconds).</param>
    /// <returns>The sections deadline-closed and deadline-open; none without a trace.</returns>
    public static IReadOnlyList<ReproductionSection> Run(ReproductionSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        if (settings.BlockTracePath is not { } path)
        {
            return [];
        }

        var importer = TraceImport.GetImporter("meta-block");
        TraceReplayPlan Plan(int permits) => DeadlineExperiment.UseResources(TraceReplayPlanner.Create(TraceRepetition.BackToBack(() => TraceImport.ReadFile(importer, path), Repeats)), permits);
        settings.Progress?.WriteLine("  deadline: closed loop");
        var closed = DeadlineExperiment.Run(Plan(ClosedLoopPermits), new DeadlineExperimentOptions { LoadLevels = [100, 150, 200, 250], ClosedLoop = true });

        // Where LSTF+RC's remaining drops come from: the same run without the resources' refusal of a waiter that
        // cannot finish in time, so only the admission test drops.
        var admissionOnly = DeadlineExperiment.Run(Plan(ClosedLoopPermits), new DeadlineExperimentOptions
        {
            LoadLevels = [250],
            ClosedLoop = true,
            Configurations = [new() { Name = "LSTF+RC-admission-only", Scheduler = SubtaskSchedulerNames.LeastSlackTimeFirst }],
        }).Rows[0];
        settings.Progress?.WriteLine("  deadline: open loop");
        var open = DeadlineExperiment.Run(Plan(1), new DeadlineExperimentOptions { LoadLevels = [2, 8, 16, 24] });
        return [Closed(closed, admissionOnly), Open(open)];
    }

    private static ReproductionSection Closed(DeadlineExperimentResult result, DeadlineExperimentRow admissionOnly)
    {
        var top = result.Rows.Max(r => r.LoadLevel);
        var lstf = result[top, "LSTF+RC"];
        var edf = result[top, "EDF+RC"];
        var best = result.Rows.Where(r => r.LoadLevel == top).OrderByDescending(r => r.Goodput).ThenBy(r => r.Configuration == "LSTF+RC" ? 0 : 1).First();
        var claims = new List<ReproductionClaim>
        {
            Claims.Of("deadline.lstf-p99", "At 250 clients LSTF+RC's p99 LND is at most the paper's 1.82", "1.82", F($"{lstf.LndP99:0.00}"),
                lstf.LndP99 <= 1.82, string.Empty),
            Claims.Of("deadline.drops", "With rate limiting about 21% of requests are dropped at 250 clients", "≈ 21%", F($"{lstf.DropFraction:P1}"),
                lstf.DropFraction <= 0.21, F($"Dropped by reason: {Reasons(lstf)}. The share depends on the topology's capacity, which the paper does not give ({ClosedLoopPermits} permits per resource here).")),
            Claims.Of("deadline.goodput", "LSTF+RC has the highest goodput of the four configurations at 250 clients", "(implied: best LND with the fewest failures)",
                F($"LSTF+RC {lstf.Goodput:P1}; Baseline {result[top, "Baseline"].Goodput:P1}; best {best.Configuration} {best.Goodput:P1}"), lstf.Goodput >= best.Goodput,
                lstf.Goodput >= best.Goodput ? string.Empty : F($"Rate control's drops ({Reasons(lstf)}) cost more goodput than the lateness they prevent.")),
            Claims.Of("deadline.lstf-beats-edf", "LSTF beats EDF (p99 LND at 250 clients)", "1.82 vs 2.15", F($"{lstf.LndP99:0.00} vs {edf.LndP99:0.00}"),
                lstf.LndP99 < edf.LndP99,
                F($"Why the two are close: deadlines are k × the time alone, and LSTF's remaining-time base is {result.EstimateOverIsolated?.P50:0.00} × the time alone at the median (p95 {result.EstimateOverIsolated?.P95:0.00}), so slack ≈ (k − {result.EstimateOverIsolated?.P50:0.00}) × time alone − elapsed and orders requests almost as the deadline does."),
                isChecked: false),
            Claims.Of("deadline.rc-cuts-lateness", "Rate control with deadline-aware dropping cuts the baseline's p99 LND", "19.71 → 1.82",
                F($"{result[top, "Baseline"].LndP99:0.00} → {lstf.LndP99:0.00}"), lstf.LndP99 < result[top, "Baseline"].LndP99, string.Empty),
        };
        var text = F($"Closed loop, {ClosedLoopPermits} permits per resource, {Repeats} × the sample ({result.Rows[0].Offered:N0} requests), k = {result.K:0}; isolated times mean {result.IsolatedMeanMs:0.0} ms, max {result.IsolatedMaxMs:0.0} ms. Goodput is completed within the deadline over offered.\n\n")
            + result.ToTable()
            + F($"\nLSTF+RC at {top:0} clients with the admission test only (resources serve every waiter): dropped {admissionOnly.DropFraction:P1} ({Reasons(admissionOnly)}), late {admissionOnly.LateFraction:P1}, goodput {admissionOnly.Goodput:P1}.\n\n")
            + ReproductionDocument.ClaimsTable(claims);
        return new ReproductionSection("deadline-closed", text, claims);
    }

    private static ReproductionSection Open(DeadlineExperimentResult result)
    {
        var top = result.Rows.Max(r => r.LoadLevel);
        var lstf = result[top, "LSTF+RC"];
        var claims = new List<ReproductionClaim>
        {
            Claims.Of("deadline.open-rc", "Open loop: rate control keeps p99 LND near 1 where the baseline's explodes", "—",
                F($"LSTF+RC {lstf.LndP99:0.00}, Baseline {result[top, "Baseline"].LndP99:0.00} at {top:0}x"), lstf.LndP99 * 10 < result[top, "Baseline"].LndP99, string.Empty),
        };
        var text = F($"Open loop at speed-ups of the recorded arrivals, one permit per resource, {Repeats} × the sample.\n\n") + result.ToTable() + "\n" + ReproductionDocument.ClaimsTable(claims);
        return new ReproductionSection("deadline-open", text, claims);
    }

    private static string Reasons(DeadlineExperimentRow row) =>
        row.DroppedByReason.Count == 0 ? "none" : string.Join(", ", row.DroppedByReason.OrderByDescending(p => p.Value).Select(p => F($"{p.Key} {(double)p.Value / row.Offered:P1}")));
}
