// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace Cicero.SampleService;

/// <summary>
/// OpenTelemetry providers that collect Cicero's metrics and spans, built directly so the self-test can attach its own
/// reader and processor; a service would use OpenTelemetry.Extensions.Hosting's <c>AddOpenTelemetry()</c> instead
/// (docs/observability.md). Add an exporter (e.g. OTLP) to ship them.
/// </summary>
public sealed class SampleTelemetry : IDisposable
{
    private readonly MeterProvider _meters;
    private readonly TracerProvider _traces;

    private SampleTelemetry(MeterProvider meters, TracerProvider traces)
    {
        _meters = meters;
        _traces = traces;
    }

    /// <summary>Starts the providers.</summary>
    /// <param name="reader">An extra metric reader (the self-test's), or <see langword="null"/>.</param>
    /// <param name="processor">An extra span processor (the self-test's), or <see langword="null"/>.</param>
    /// <returns>The providers; dispose them at shutdown.</returns>
    public static SampleTelemetry Start(MetricReader? reader = null, BaseProcessor<Activity>? processor = null)
    {
        // snippet: opentelemetry
        var metrics = Sdk.CreateMeterProviderBuilder()
            .AddCiceroInstrumentation();                // the "Cicero" meter
        var tracing = Sdk.CreateTracerProviderBuilder()
            .AddSource("Microsoft.AspNetCore")          // ASP.NET Core's server span, the parent of Cicero's
            .AddCiceroInstrumentation();                // the "Cicero" activity source
        // end snippet
        if (reader is not null)
        {
            metrics.AddReader(reader);
        }

        if (processor is not null)
        {
            tracing.AddProcessor(processor);
        }

        return new SampleTelemetry(metrics.Build(), tracing.Build());
    }

    /// <summary>Collects the metrics now.</summary>
    public void Flush()
    {
        _meters.ForceFlush();
        _traces.ForceFlush();
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _meters.Dispose();
        _traces.Dispose();
    }
}
