// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace Cicero.Grpc.Tests.Telemetry;

/// <summary>
/// Copies exported metric points into memory (the SDK reuses its <see cref="Metric"/> objects between exports), in
/// place of OpenTelemetry.Exporter.InMemory, which the package feed here does not serve.
/// </summary>
internal sealed class CollectingMetricExporter : BaseExporter<Metric>
{
    public ConcurrentBag<ExportedPoint> Points { get; } = [];

    public override ExportResult Export(in Batch<Metric> batch)
    {
        foreach (var metric in batch)
        {
            foreach (ref readonly var point in metric.GetMetricPoints())
            {
                var tags = new Dictionary<string, object?>();
                foreach (var tag in point.Tags)
                {
                    tags[tag.Key] = tag.Value;
                }

                var value = metric.MetricType switch
                {
                    MetricType.LongSum or MetricType.LongSumNonMonotonic => point.GetSumLong(),
                    MetricType.DoubleSum or MetricType.DoubleSumNonMonotonic => point.GetSumDouble(),
                    MetricType.LongGauge => point.GetGaugeLastValueLong(),
                    MetricType.DoubleGauge => point.GetGaugeLastValueDouble(),
                    MetricType.Histogram => point.GetHistogramCount(),
                    _ => double.NaN,
                };
                Points.Add(new ExportedPoint(metric.MeterName, metric.Name, value, tags));
            }
        }

        return ExportResult.Success;
    }

    internal sealed record ExportedPoint(string MeterName, string Name, double Value, Dictionary<string, object?> Tags);
}
