// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Telemetry;
using Cicero.Grpc.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace Cicero.Grpc.Tests.Telemetry;

/// <summary>
/// The wiring docs/observability.md shows: <c>AddOpenTelemetry().WithMetrics(...).WithTracing(...)</c> from
/// OpenTelemetry.Extensions.Hosting, in a real host, collects Cicero's metrics and spans for a real call.
/// </summary>
public sealed class OpenTelemetryHostingTests
{
    [Fact]
    public async Task AddOpenTelemetry_WithCiceroInstrumentation_CollectsMetricsAndSpansOfACall()
    {
        var workflow = $"otel-{Guid.NewGuid():N}";
        var exporter = new CollectingMetricExporter();
        var spans = new CollectingActivityProcessor();
        await using var host = await TestHost.StartProbeAsync(
            o => o.Classifier = WorkflowClassifiers.Fixed(workflow),
            services: s => s.AddOpenTelemetry()
                .WithMetrics(m => m.AddCiceroInstrumentation().AddReader(new BaseExportingMetricReader(exporter)))
                .WithTracing(t => t.AddCiceroInstrumentation().SetSampler(new AlwaysOnSampler()).AddProcessor(spans)));
        using var channel = host.CreateChannel();

        await TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"));
        host.Services.GetRequiredService<MeterProvider>().ForceFlush();

        Assert.Contains(exporter.Points, p => p.Name == CiceroTelemetry.RequestsAdmitted && Equals(p.Tags.GetValueOrDefault(CiceroTelemetry.WorkflowTag), workflow));
        var span = Assert.Single(spans.Ended, a => Equals(a.GetTagItem(CiceroTelemetry.WorkflowTag), workflow));
        Assert.Equal("grpc", span.GetTagItem(CiceroGrpcTelemetry.RpcSystemTag));
        Assert.Equal(CiceroGrpcTelemetry.AdmissionAdmitted, span.GetTagItem(CiceroGrpcTelemetry.AdmissionTag));
    }
}
