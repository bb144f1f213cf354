// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Cake's outstanding-request limit (Cake §4.1, §5.2) as a resource's capacity: every interval, given the average
/// processing latency, the limit grows by one below the low bound and shrinks by the decrease factor above the high
/// bound (AIMD, like TCP), so the device is kept busy without piling up contention.
/// </summary>
/// <remarks>A state machine; the caller measures latency and applies the limit. Not thread-safe.</remarks>
public sealed class OutstandingRequestLimit
{
    private readonly OutstandingRequestLimitOptions _options;

    /// <summary>Creates the controller.</summary>
    /// <param name="initialLimit">The starting limit, clamped to the options' bounds.</param>
    /// <param name="options">Bounds and thresholds; defaults when <see langword="null"/>.</param>
    public OutstandingRequestLimit(int initialLimit, OutstandingRequestLimitOptions? options = null)
    {
        _options = options ?? new OutstandingRequestLimitOptions();
        _options.Validate();
        Limit = Math.Clamp(initialLimit, _options.MinLimit, _options.MaxLimit);
    }

    /// <summary>Gets the current limit.</summary>
    public int Limit { get; private set; }

    /// <summary>Updates the limit from the last interval's average latency.</summary>
    /// <param name="averageLatency">The average processing latency measured over the interval.</param>
    /// <returns>The new limit.</returns>
    public int Update(TimeSpan averageLatency)
    {
        if (averageLatency < _options.LowLatency)
        {
            Limit = Math.Min(_options.MaxLimit, Limit + 1);
        }
        else if (averageLatency > _options.HighLatency)
        {
            Limit = Math.Max(_options.MinLimit, (int)(Limit * _options.DecreaseFactor));
        }

        return Limit;
    }

    /// <summary>Updates the limit from <paramref name="resource"/>'s measured latency and applies it as its capacity.</summary>
    /// <param name="resource">The resource.</param>
    /// <param name="averageLatency">The average processing latency over the interval.</param>
    /// <returns>The new limit.</returns>
    public int UpdateAndApply(ResourceSemaphore resource, TimeSpan averageLatency)
    {
        ArgumentNullException.ThrowIfNull(resource);
        var limit = Update(averageLatency);
        resource.Configure(limit, resource.MaxQueueLength);
        return limit;
    }
}
