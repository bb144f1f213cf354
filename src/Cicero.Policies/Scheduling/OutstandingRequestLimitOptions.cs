// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Scheduling;

/// <summary>Options of the <see cref="OutstandingRequestLimit"/> (Cake §5.2's defaults for HBase).</summary>
public sealed class OutstandingRequestLimitOptions
{
    /// <summary>Gets or sets the latency below which the limit grows by one.</summary>
    /// <value>6 ms.</value>
    public TimeSpan LowLatency { get; set; } = TimeSpan.FromMilliseconds(6);

    /// <summary>Gets or sets the latency above which the limit shrinks multiplicatively.</summary>
    /// <value>8 ms.</value>
    public TimeSpan HighLatency { get; set; } = TimeSpan.FromMilliseconds(8);

    /// <summary>Gets or sets the factor the limit is multiplied by on a decrease.</summary>
    /// <value>0.75 (a 25 % cut).</value>
    public double DecreaseFactor { get; set; } = 0.75;

    /// <summary>Gets or sets the smallest limit.</summary>
    /// <value>4.</value>
    public int MinLimit { get; set; } = 4;

    /// <summary>Gets or sets the largest limit.</summary>
    /// <value>72.</value>
    public int MaxLimit { get; set; } = 72;

    internal void Validate()
    {
        if (LowLatency <= TimeSpan.Zero || HighLatency < LowLatency)
        {
            throw new ArgumentOutOfRangeException(nameof(HighLatency), HighLatency, "Need 0 < LowLatency ≤ HighLatency.");
        }

        if (!(DecreaseFactor > 0 && DecreaseFactor < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(DecreaseFactor), DecreaseFactor, "Must be in (0, 1).");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(MinLimit, 1, nameof(MinLimit));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxLimit, MinLimit, nameof(MaxLimit));
    }
}
