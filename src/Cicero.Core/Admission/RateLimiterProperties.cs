// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>The properties of one workflow's rate limiter (Table 5.1's Get/SetRateLimiterProperty).</summary>
/// <param name="Rate">The admission rate σ, requests per second; +∞ for no limit.</param>
/// <param name="Burst">The most tokens the bucket holds, in requests; <see langword="null"/> for σ × the controller's burst window (at least 1).</param>
/// <param name="QueueLimit">How many requests may wait for a token.</param>
public readonly record struct RateLimiterProperties(double Rate, double? Burst, int QueueLimit)
{
    internal void Validate()
    {
        if (double.IsNaN(Rate) || Rate < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(Rate), Rate, "The admission rate must be non-negative (or +∞).");
        }

        if (Burst is { } burst && (!double.IsFinite(burst) || burst < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(Burst), burst, "The burst must be a finite number of at least 1 request.");
        }

        ArgumentOutOfRangeException.ThrowIfNegative(QueueLimit, nameof(QueueLimit));
    }
}
