// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Traces.Replay;
using Cicero.Policies.Dropping;
using Cicero.Policies.Scheduling;
using static Cicero.Emulator.Reproduction.Claims;

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// Where rate control's lost goodput comes from in a sweep cell: LSTF+RC with each drop source switched off in turn
/// (the admission test, the resources' refusal of a waiter that cannot finish), beside the baseline, on the same seeds.
/// </summary>
internal static class DropSources
{
    private static readonly (string Name, string Label, Action<ConfigurationSpec> Change)[] Variants =
    [
        ("LSTF+RC", "LSTF+RC as shipped", _ => { }),
        ("LSTF+RC.no-refusal", "admission test only (resources serve every waiter)", c => c.DropExpiredSubtasks = false),
        ("LSTF+RC.no-admission-test", "resources' refusal only (no admission test)", c => c.DropPolicy = DropPolicies.Never),
        ("LSTF+RC.no-deadline-drops", "neither (rate limiting alone)", c => { c.DropPolicy = DropPolicies.Never; c.DropExpiredSubtasks = false; }),
    ];

    /// <summary>Runs the variants on one cell and formats one table row per variant.</summary>
    public static string Rows(string trace, int permits, int clients, Func<TraceReplayPlan> plan, int[] seeds)
    {
        var configurations = new List<ConfigurationSpec> { DeadlineExperiment.DefaultConfigurations()[0] };
        foreach (var (name, _, change) in Variants)
        {
            var configuration = new ConfigurationSpec { Name = name, Scheduler = SubtaskSchedulerNames.LeastSlackTimeFirst, DropExpiredSubtasks = true };
            change(configuration);
            configurations.Add(configuration);
        }

        var runs = seeds.Select(seed => DeadlineExperiment.Run(plan(), new DeadlineExperimentOptions
        {
            LoadLevels = [clients],
            ClosedLoop = true,
            Seed = seed,
            Configurations = configurations,
        })).ToArray();
        var baseline = runs.Select(r => r[clients, "Baseline"].Goodput).ToArray();
        var text = new StringBuilder();
        foreach (var (name, label) in Variants.Select(v => (v.Name, v.Label)).Prepend(("Baseline", "baseline (no rate control, no drops)")))
        {
            var rows = runs.Select(r => r[clients, name]).ToArray();
            var goodput = SeedInterval.Of([.. rows.Select(r => r.Goodput)]);
            var delta = SeedInterval.OfDifference([.. rows.Select(r => r.Goodput)], baseline);
            var reasons = rows.SelectMany(r => r.DroppedByReason).GroupBy(p => p.Key)
                .Select(g => F($"{g.Key} {(double)g.Sum(p => p.Value) / rows.Sum(r => r.Offered):P1}"));
            text.Append(CultureInfo.InvariantCulture, $"| {trace} | {permits} | {clients} | {label} | {goodput.ToString("P1")} | {(name == "Baseline" ? "—" : delta.ToString("P1"))} | {SeedInterval.Of([.. rows.Select(r => r.DropFraction)]).ToString("P1")} ({(rows.Any(r => r.DroppedByReason.Count > 0) ? string.Join(", ", reasons) : "none")}) | {SeedInterval.Of([.. rows.Select(r => r.LateFraction)]).ToString("P1")} |\n");
        }

        return text.ToString();
    }

    /// <summary>The table's header.</summary>
    public const string Header = "| trace | permits | clients | configuration | goodput | minus the baseline's | dropped (by reason) | late, of completed |\n|---|---|---|---|---|---|---|---|\n";
}
