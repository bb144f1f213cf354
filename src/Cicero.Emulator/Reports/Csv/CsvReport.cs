// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Measurement;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Reports.Csv;

/// <summary>The report's CSV files, one table each, every row keyed by the configuration first.</summary>
internal static class CsvReport
{
    public const string Summary = "summary.csv";
    public const string TimeSeries = "timeseries.csv";
    public const string Rates = "rates.csv";
    public const string Utilization = "utilization.csv";
    public const string Runs = "runs.csv";

    /// <summary>Gets every file's name and text.</summary>
    public static List<(string Name, CsvTable Table)> Build(IReadOnlyList<TopologyRunResult> runs) =>
    [
        (Summary, BuildSummary(runs)),
        (TimeSeries, BuildTimeSeries(runs)),
        (Rates, BuildRates(runs)),
        (Utilization, BuildUtilization(runs)),
        (Runs, BuildRuns(runs)),
    ];

    /// <summary>Gets every drop (or failure) reason seen in any run, sorted, so every run's rows have the same columns.</summary>
    public static List<string> Reasons(IReadOnlyList<TopologyRunResult> runs, bool failures)
    {
        var reasons = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var run in runs)
        {
            foreach (var workflow in run.Workflows)
            {
                reasons.UnionWith((failures ? workflow.FailedByReason : workflow.DroppedByReason).Keys);
            }
        }

        return [.. reasons];
    }

    private static CsvTable BuildSummary(IReadOnlyList<TopologyRunResult> runs)
    {
        var drops = Reasons(runs, failures: false);
        var failures = Reasons(runs, failures: true);
        var header = new List<string> { "configuration", "workflow", "offered", "admitted", "completed", "dropped", "failed", "timed_out" };
        header.AddRange(drops.Select(static r => "dropped." + r));
        header.AddRange(failures.Select(static r => "failed." + r));
        header.AddRange(["offered_per_s", "throughput_per_s", "completed_fraction", "admission_to_allowance"]);
        header.AddRange(SummaryColumns("latency_ms"));
        header.AddRange(SummaryColumns("lnd"));
        var table = new CsvTable([.. header]);
        foreach (var run in runs)
        {
            foreach (var w in run.Workflows)
            {
                table.Field(run.Configuration).Field(w.Workflow).Field(w.Offered).Field(w.Admitted).Field(w.Completed)
                    .Field(w.Dropped).Field(w.Failed).Field(w.TimedOut);
                foreach (var reason in drops)
                {
                    table.Field(w.DroppedByReason.TryGetValue(reason, out var count) ? count : 0);
                }

                foreach (var reason in failures)
                {
                    table.Field(w.FailedByReason.TryGetValue(reason, out var count) ? count : 0);
                }

                table.Field(w.OfferedRate).Field(w.Throughput).Field(w.CompletedFraction).Field(w.AdmissionToAllowance);
                AppendSummary(table, w.LatencyMs);
                AppendSummary(table, w.Lnd);
                table.EndRow();
            }
        }

        return table;
    }

    private static string[] SummaryColumns(string prefix) =>
        [prefix + "_count", prefix + "_mean", prefix + "_p50", prefix + "_p95", prefix + "_p99", prefix + "_p999", prefix + "_max"];

    private static void AppendSummary(CsvTable table, DistributionSummary? summary)
    {
        if (summary is null)
        {
            for (var i = 0; i < 7; i++)
            {
                table.Field((string?)null);
            }

            return;
        }

        table.Field(summary.Count).Field(summary.Mean).Field(summary.P50).Field(summary.P95).Field(summary.P99).Field(summary.P999).Field(summary.Max);
    }

    private static CsvTable BuildTimeSeries(IReadOnlyList<TopologyRunResult> runs)
    {
        var table = new CsvTable("configuration", "second", "workflow", "offered", "completed", "dropped", "failed", "mean_latency_ms");
        foreach (var run in runs)
        {
            foreach (var s in run.TimeSeries)
            {
                table.Field(run.Configuration).Field(s.Second).Field(s.Workflow).Field(s.Offered).Field(s.Completed)
                    .Field(s.Dropped).Field(s.Failed).Field(s.MeanLatencyMs);
                table.EndRow();
            }
        }

        return table;
    }

    private static CsvTable BuildRates(IReadOnlyList<TopologyRunResult> runs)
    {
        var table = new CsvTable("configuration", "second", "service", "workflow", "total_rate_per_s", "limited_instances");
        foreach (var run in runs)
        {
            foreach (var r in run.Rates)
            {
                table.Field(run.Configuration).Field(r.Second).Field(r.Service).Field(r.Workflow).Field(r.TotalRate).Field(r.LimitedInstances);
                table.EndRow();
            }
        }

        return table;
    }

    private static CsvTable BuildUtilization(IReadOnlyList<TopologyRunResult> runs)
    {
        var table = new CsvTable("configuration", "service", "resource", "kind", "capacity", "mean", "max");
        foreach (var run in runs)
        {
            foreach (var u in run.Resources)
            {
                table.Field(run.Configuration).Field(u.Service).Field(u.Resource).Field(u.Kind).Field(u.Capacity).Field(u.Mean).Field(u.Max);
                table.EndRow();
            }
        }

        return table;
    }

    private static CsvTable BuildRuns(IReadOnlyList<TopologyRunResult> runs)
    {
        var table = new CsvTable("configuration", "scenario", "seed", "duration_s", "warm_up_s", "end_s", "events", "requests");
        foreach (var run in runs)
        {
            table.Field(run.Configuration).Field(run.Scenario).Field(run.Seed).Field(run.DurationSeconds).Field(run.WarmUpSeconds)
                .Field(run.EndSeconds).Field(run.Events).Field(run.Requests);
            table.EndRow();
        }

        return table;
    }
}
