// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace Cicero.Benchmarks;

/// <summary>
/// Summarises a benchmark by launch (process) rather than by pooled iteration: each launch's median, the median of
/// those, and that median's ratio to the baseline's.
/// </summary>
/// <remarks>
/// A loopback gRPC call settles, per process, into one of two speeds (about 45 or 70 µs per call on the reference
/// machine, for the plain and the Cicero call alike; docs/performance.md). BenchmarkDotNet pools all launches'
/// iterations, so with a handful of launches its Median and Ratio depend on how many of each variant's processes drew
/// the slow speed. Listing the launches shows the draw, and the median of launch medians is less exposed to it. Run with
/// <c>--launchCount N</c>; with one launch these columns repeat the ordinary median.
/// </remarks>
internal sealed class LaunchMedianColumn(LaunchMedianColumn.Kind kind) : IColumn
{
    /// <summary>What the column shows.</summary>
    public enum Kind
    {
        /// <summary>Each launch's median time per operation, in launch order.</summary>
        Launches,

        /// <summary>The median of the launch medians.</summary>
        Median,

        /// <summary>The median of the launch medians divided by the baseline's.</summary>
        Ratio,
    }

    public string Id => $"{nameof(LaunchMedianColumn)}.{kind}";

    public string ColumnName => kind switch
    {
        Kind.Launches => "Launch medians",
        Kind.Median => "Median of launches",
        _ => "Ratio of launch medians",
    };

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => (int)kind;

    public bool IsNumeric => kind != Kind.Launches;

    public UnitType UnitType => kind == Kind.Median ? UnitType.Time : UnitType.Dimensionless;

    public string Legend => kind switch
    {
        Kind.Launches => "Median time per operation of each launch (process), in launch order, in microseconds",
        Kind.Median => "Median of the launch medians",
        _ => "Median of launches divided by the baseline's median of launches",
    };

    public bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        var launches = LaunchMediansNs(summary, benchmarkCase);
        if (launches.Count == 0)
        {
            return "NA";
        }

        switch (kind)
        {
            case Kind.Launches:
                return string.Join(' ', launches.Select(ns => (ns / 1000).ToString("0.0", CultureInfo.InvariantCulture)));
            case Kind.Median:
                return (Medians.Of(launches) / 1000).ToString("0.00", CultureInfo.InvariantCulture) + " us";
            default:
                var baseline = summary.GetBaseline(summary.GetLogicalGroupKey(benchmarkCase));
                var baselineLaunches = baseline is null ? [] : LaunchMediansNs(summary, baseline);
                return baselineLaunches.Count == 0
                    ? "?"
                    : (Medians.Of(launches) / Medians.Of(baselineLaunches)).ToString("0.000", CultureInfo.InvariantCulture);
        }
    }

    public override string ToString() => ColumnName;

    private static List<double> LaunchMediansNs(Summary summary, BenchmarkCase benchmarkCase)
    {
        if (summary[benchmarkCase] is not { } report)
        {
            return [];
        }

        return [.. report.AllMeasurements
            .Where(m => m.IterationMode == IterationMode.Workload && m.IterationStage == IterationStage.Result)
            .GroupBy(m => m.LaunchIndex)
            .OrderBy(g => g.Key)
            .Select(g => Medians.Of(g.Select(m => m.GetAverageTime().Nanoseconds)))];
    }
}
