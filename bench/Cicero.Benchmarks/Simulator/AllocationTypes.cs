// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics.Tracing;
using System.Globalization;

namespace Cicero.Benchmarks.Simulator;

/// <summary>
/// Samples the runtime's allocation ticks (one event about every 100 KB allocated, naming the type that crossed the
/// mark), so the types a run allocates most can be listed without an external profiler.
/// </summary>
internal sealed class AllocationTypes : EventListener
{
    private readonly Dictionary<string, long> _bytes = new(StringComparer.Ordinal);

    /// <summary>Prints the types with the most sampled bytes, most first.</summary>
    public void Print(TextWriter writer, int top)
    {
        KeyValuePair<string, long>[] rows;
        lock (_bytes)
        {
            rows = [.. _bytes.OrderByDescending(r => r.Value).Take(top)];
        }

        var total = _bytes.Values.Sum();
        foreach (var (type, bytes) in rows)
        {
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {100.0 * bytes / total,5:F1}%  {type}"));
        }
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
        {
            EnableEvents(eventSource, EventLevel.Verbose, (EventKeywords)0x1);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (eventData.EventName is not "GCAllocationTick_V4" and not "GCAllocationTick_V3" || eventData.Payload is null)
        {
            return;
        }

        var type = eventData.Payload[eventData.PayloadNames!.IndexOf("TypeName")] as string ?? "?";
        var amount = Convert.ToInt64(eventData.Payload[eventData.PayloadNames.IndexOf("AllocationAmount64")], CultureInfo.InvariantCulture);
        lock (_bytes)
        {
            _bytes[type] = _bytes.GetValueOrDefault(type) + amount;
        }
    }
}
