// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Globalization;
using Cicero.Diagnostics;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Telemetry;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Workflows;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using Xunit.Abstractions;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Issue 8 item 4: a flood of distinct workflow ids at an entry point that classifies by a header, through the
/// server interceptor as grpc-dotnet calls it. The registry folds
/// ids past its bound into the overflow workflow, the managed heap stops growing once the bounded structures are
/// full, and the <c>cicero.workflow</c> tag takes a bounded set of values on spans (the tag limiter) and on Core's
/// metrics (the registry).
/// </summary>
/// <remarks>
/// CI sends 100,000 ids; <c>CICERO_CARDINALITY_IDS=1000000</c> runs the documented long run. Serial, so that the heap
/// measured is this test's.
/// </remarks>
[Collection(SerialReliabilityTests.Name)]
public sealed class WorkflowCardinalityTests(ITestOutputHelper output)
{
    private const string TenantHeader = "x-tenant";
    private const string Prefix = "card-";
    private const int HeavyTenants = 150;
    private const int HeavyCallsEach = 10;
    private const int Warmup = 10_000;

    // Heap growth allowed from the warm-up checkpoint to the end; a per-id leak of even 24 bytes shows past it at 100,000 ids.
    private const long HeapGrowthAllowance = 2 * 1024 * 1024;

    private const string Method = "/cicero.test.Probe/Cardinality";

    [Fact]
    public async Task EntryPoint_FloodOfDistinctWorkflowIds_RegistryTagsAndHeapStayBounded()
    {
        var distinct = ReliabilitySettings.CardinalityIds(ciDefault: 100_000);
        using var server = new CiceroServices(o => o.Classifier = WorkflowClassifiers.ByHeader(TenantHeader));
        var registry = server.Runtime.Registry;
        var tags = server.Services.GetRequiredService<WorkflowTagLimiter>();
        using var telemetry = new WorkflowTagCollector(CiceroGrpcTelemetry.ServerActivityPrefix + Method);
        var start = TimeProvider.System.GetTimestamp();

        // Tenants with real traffic first: they earn names in the tag limiter (at most its bound of them).
        for (var round = 0; round < HeavyCallsEach; round++)
        {
            for (var t = 0; t < HeavyTenants; t++)
            {
                await CallAsync(server, "heavy-" + t.ToString(CultureInfo.InvariantCulture));
            }
        }

        var checkpoints = new List<(int Ids, long Heap)>();
        for (var i = 0; i < distinct; i++)
        {
            await CallAsync(server, Prefix + i.ToString(CultureInfo.InvariantCulture));
            if (i + 1 == Warmup || i + 1 == distinct || (i + 1 >= Warmup && IsPowerOfTen(i + 1)))
            {
                checkpoints.Add((i + 1, HeapAfterFullCollection()));
            }
        }

        var elapsed = TimeProvider.System.GetElapsedTime(start);
        using var process = Process.GetCurrentProcess();
        output.WriteLine(FormattableString.Invariant(
            $"{distinct:N0} distinct ids (+{HeavyTenants * HeavyCallsEach:N0} heavy calls) in {elapsed.TotalSeconds:F1} s; peak working set {process.PeakWorkingSet64 / 1048576.0:N0} MiB"));
        foreach (var (ids, heap) in checkpoints)
        {
            output.WriteLine(FormattableString.Invariant($"  managed heap after a full GC at {ids,9:N0} ids: {heap / 1048576.0:N2} MiB"));
        }

        output.WriteLine(FormattableString.Invariant(
            $"  registry: {registry.Count:N0} slots, overflow used {registry.OverflowCount:N0} times; tag limiter: {tags.NamedCount} names"));
        output.WriteLine(FormattableString.Invariant(
            $"  distinct cicero.workflow values: spans {telemetry.SpanValues.Count}, Core metrics {telemetry.MetricValues.Count} ({string.Join(", ", telemetry.MetricInstruments)})"));

        // The registry: full, and every id past its bound folded into the overflow workflow.
        Assert.Equal(registry.MaxWorkflows + 1, registry.Count);
        Assert.True(registry.OverflowCount >= distinct - registry.MaxWorkflows, $"overflow used {registry.OverflowCount} times");

        // Spans: at most the limiter's names plus the overflow value, and the heavy tenants got the names.
        Assert.Equal(tags.MaxValues, tags.NamedCount);
        Assert.InRange(telemetry.SpanValues.Count, 2, tags.MaxValues + 1);
        Assert.Contains(CiceroGrpcTelemetry.OverflowWorkflowTagValue, telemetry.SpanValues);
        Assert.DoesNotContain(telemetry.SpanValues, v => v.StartsWith(Prefix, StringComparison.Ordinal));

        // Core's metrics tag the registry's slot: at most its bound plus the overflow workflow.
        Assert.InRange(telemetry.MetricValues.Count, 2, registry.MaxWorkflows + 1);
        Assert.Contains(WorkflowRegistry.OverflowWorkflowName, telemetry.MetricValues);

        // Memory: once the bounded structures are full, more ids add nothing.
        var growth = checkpoints[^1].Heap - checkpoints[0].Heap;
        Assert.True(growth < HeapGrowthAllowance, FormattableString.Invariant($"the heap grew by {growth:N0} bytes from {Warmup:N0} to {distinct:N0} ids"));
        Assert.Equal(0, server.Interceptor.InFlight);
    }

    private static async Task CallAsync(CiceroServices server, string tenant)
    {
        var call = new TestServerCallContext(Method, requestHeaders: new Metadata { { TenantHeader, tenant } });
        var response = await server.Interceptor.UnaryServerHandler("hi", call, static (string request, ServerCallContext _) => Task.FromResult(request));
        Assert.Equal("hi", response);
    }

    private static long HeapAfterFullCollection()
    {
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        return GC.GetTotalMemory(forceFullCollection: true);
    }

    private static bool IsPowerOfTen(int value)
    {
        while (value >= 10 && value % 10 == 0)
        {
            value /= 10;
        }

        return value == 1;
    }

    /// <summary>Collects the distinct <c>cicero.workflow</c> values on Cicero's spans for one method and on Core's metrics.</summary>
    private sealed class WorkflowTagCollector : IDisposable
    {
        private readonly Lock _lock = new();
        private readonly MeterListener _meters = new();
        private readonly ActivityListener _spans;

        public WorkflowTagCollector(string spanName)
        {
            _spans = new ActivityListener
            {
                ShouldListenTo = source => source.Name == CiceroTelemetry.Name,
                Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
                ActivityStopped = activity =>
                {
                    if (activity.DisplayName == spanName && activity.GetTagItem(CiceroTelemetry.WorkflowTag) is string value)
                    {
                        lock (_lock)
                        {
                            SpanValues.Add(value);
                        }
                    }
                },
            };
            ActivitySource.AddActivityListener(_spans);
            _meters.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == CiceroTelemetry.Name)
                {
                    listener.EnableMeasurementEvents(instrument, this);
                }
            };
            _meters.SetMeasurementEventCallback<long>((i, _, t, s) => ((WorkflowTagCollector)s!).OnMeasurement(i, t));
            _meters.SetMeasurementEventCallback<double>((i, _, t, s) => ((WorkflowTagCollector)s!).OnMeasurement(i, t));
            _meters.SetMeasurementEventCallback<int>((i, _, t, s) => ((WorkflowTagCollector)s!).OnMeasurement(i, t));
            _meters.Start();
        }

        public HashSet<string> SpanValues { get; } = new(StringComparer.Ordinal);

        public HashSet<string> MetricValues { get; } = new(StringComparer.Ordinal);

        public SortedSet<string> MetricInstruments { get; } = new(StringComparer.Ordinal);

        public void Dispose()
        {
            _meters.Dispose();
            _spans.Dispose();
        }

        private void OnMeasurement(Instrument instrument, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            foreach (var (key, value) in tags)
            {
                // Only this test's ids and the overflow workflow: other tests' workflows are not this flood's.
                if (key == CiceroTelemetry.WorkflowTag && value is string workflow &&
                    (workflow.StartsWith(Prefix, StringComparison.Ordinal) || workflow.StartsWith("heavy-", StringComparison.Ordinal) || workflow == WorkflowRegistry.OverflowWorkflowName))
                {
                    lock (_lock)
                    {
                        MetricValues.Add(workflow);
                        MetricInstruments.Add(instrument.Name);
                    }
                }
            }
        }
    }
}
