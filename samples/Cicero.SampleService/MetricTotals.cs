// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace Cicero.SampleService;

/// <summary>
/// Keeps the latest total of each exported metric (sums, histogram counts, last gauge values), so the self-test can
/// show that OpenTelemetry collected Cicero's metrics. Stands in for a real exporter, which this feed lacks.
/// </summary>
public sealed class MetricTotals : BaseExporter<Metric>
{
    private readonly ConcurrentDictionary<string, double> _totals = new(StringComparer.Ordinal);

    /// <summary>Gets a metric's total over all its tag sets, or 0 if it was never exported.</summary>
    /// <param name="name">The instrument's name.</param>
    /// <returns>The total.</returns>
    public double Get(string name) => _totals.TryGetValue(name, out var total) ? total : 0;

    /// <inheritdoc />
    public override ExportResult Export(in Batch<Metric> batch)
    {
        foreach (var metric in batch)
        {
            var total = 0.0;
            foreach (ref readonly var point in metric.GetMetricPoints())
            {
                total += metric.MetricType switch
                {
                    MetricType.LongSum or MetricType.LongSumNonMonotonic => point.GetSumLong(),
                    MetricType.DoubleSum or MetricType.DoubleSumNonMonotonic => point.GetSumDouble(),
                    MetricType.LongGauge => point.GetGaugeLastValueLong(),
                    MetricType.DoubleGauge => point.GetGaugeLastValueDouble(),
                    MetricType.Histogram => point.GetHistogramCount(),
                    _ => 0,
                };
            }

            // Cumulative temporality: each export carries the totals so far.
            _totals[metric.Name] = total;
        }

        return ExportResult.Success;
    }
}
