// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Context;

/// <summary>Validation limits of a <see cref="RequestContextCodec"/>.</summary>
public sealed class RequestContextCodecOptions
{
    /// <summary>Gets or sets the longest elapsed time or deadline accepted from the wire.</summary>
    /// <value>One day. Anything longer is treated as corrupt or hostile input.</value>
    public TimeSpan MaxDuration { get; set; } = TimeSpan.FromDays(1);

    /// <summary>Gets or sets the largest progress counter (seconds of service time, or load) accepted from the wire.</summary>
    /// <value>1,000,000.</value>
    public double MaxProgressValue { get; set; } = 1_000_000;

    internal void Validate()
    {
        if (MaxDuration <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(MaxDuration), MaxDuration, "Must be positive.");
        }

        if (!double.IsFinite(MaxProgressValue) || MaxProgressValue <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(MaxProgressValue), MaxProgressValue, "Must be a positive finite number.");
        }
    }
}
