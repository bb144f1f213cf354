// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Resources;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Tests.Diagnostics;

public class CiceroInstrumentsTests
{
    [Fact]
    public async Task Engines_RecordAdmissionsDropsRatesAndServiceTimes_WithTags()
    {
        // Unique names keep measurements of tests running in parallel apart.
        var workflow = $"metrics-{Guid.NewGuid():N}";
        var resourceName = $"disk-{Guid.NewGuid():N}";
        var measurements = new ConcurrentBag<(string Instrument, double Value, Dictionary<string, object?> Tags)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == CiceroTelemetry.Name)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((i, v, tags, _) => measurements.Add((i.Name, v, ToDictionary(tags))));
        listener.SetMeasurementEventCallback<double>((i, v, tags, _) => measurements.Add((i.Name, v, ToDictionary(tags))));
        listener.SetMeasurementEventCallback<int>((i, v, tags, _) => measurements.Add((i.Name, v, ToDictionary(tags))));
        listener.Start();

        var clock = new VirtualTimeProvider();
        var registry = new WorkflowRegistry();
        using var admission = new AdmissionController(registry, null, null, clock);
        admission.Configure(workflow, new RateLimiterProperties(5, 1, 0));
        Assert.True(admission.TryAdmit(RequestContext.Start(workflow, clock)).IsAdmitted);
        Assert.False(admission.TryAdmit(RequestContext.Start(workflow, clock)).IsAdmitted);
        var resource = new ResourceSemaphore(new ResourceSemaphoreOptions { Name = resourceName, Capacity = 1 }, registry, null, clock);
        var lease = await resource.AcquireAsync(RequestContext.Start(workflow, clock));
        clock.Advance(TimeSpan.FromMilliseconds(20));
        lease.Dispose();

        var mine = measurements.Where(m => m.Tags.ContainsValue(workflow) || m.Tags.ContainsValue(resourceName)).ToList();
        Assert.Contains(mine, m => m.Instrument == CiceroTelemetry.AdmissionRate && m.Value == 5);
        Assert.Contains(mine, m => m.Instrument == CiceroTelemetry.RequestsAdmitted && m.Value == 1);
        Assert.Contains(mine, m => m.Instrument == CiceroTelemetry.RequestsDropped
            && Equals(m.Tags[CiceroTelemetry.DropReasonTag], "rate_limited"));
        Assert.Contains(mine, m => m.Instrument == CiceroTelemetry.ResourceServiceDuration && Math.Abs(m.Value - 0.020) < 1e-9);
        Assert.All(measurements, m => Assert.InRange(m.Tags.Count, 0, 3));
    }

    private static Dictionary<string, object?> ToDictionary(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var result = new Dictionary<string, object?>();
        foreach (var tag in tags)
        {
            result[tag.Key] = tag.Value;
        }

        return result;
    }
}
