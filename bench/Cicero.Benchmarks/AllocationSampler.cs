// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics.Tracing;

namespace Cicero.Benchmarks;

/// <summary>
/// Samples the runtime's allocation ticks (one event per ~100 KB allocated, naming the type that crossed the
/// threshold) so a harness can say which types make up its garbage, in proportion.
/// </summary>
internal sealed class AllocationSampler : EventListener
{
    private const EventKeywords GcKeyword = (EventKeywords)0x1;
    private readonly Dictionary<string, long> _bytesByType = [];
    private readonly Lock _lock = new();
    private bool _enabled;

    public void Start() => _enabled = true;

    public IReadOnlyList<KeyValuePair<string, long>> Top(int count)
    {
        lock (_lock)
        {
            return [.. _bytesByType.OrderByDescending(p => p.Value).Take(count)];
        }
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
        {
            EnableEvents(eventSource, EventLevel.Verbose, GcKeyword);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (!_enabled || eventData.EventName is not { } name || !name.StartsWith("GCAllocationTick", StringComparison.Ordinal) || eventData.Payload is null)
        {
            return;
        }

        var type = eventData.PayloadNames?.IndexOf("TypeName") is int i and >= 0 ? eventData.Payload[i] as string ?? "?" : "?";
        var amount = eventData.PayloadNames?.IndexOf("AllocationAmount") is int j and >= 0 ? Convert.ToInt64(eventData.Payload[j], System.Globalization.CultureInfo.InvariantCulture) : 0;
        lock (_lock)
        {
            _bytesByType[type] = _bytesByType.GetValueOrDefault(type) + amount;
        }
    }
}
