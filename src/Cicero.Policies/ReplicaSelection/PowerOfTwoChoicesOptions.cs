// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>Options of the <see cref="PowerOfTwoChoicesSelector"/>.</summary>
public sealed class PowerOfTwoChoicesOptions
{
    /// <summary>Gets or sets the source that samples the two candidates; <see langword="null"/> uses one seeded with 0.</summary>
    /// <value><see langword="null"/>.</value>
    /// <remarks>
    /// A <see cref="System.Random"/> is not thread-safe. A selector built with the constructor uses this source as is, so
    /// give each selector its own; <see cref="PowerOfTwoChoicesSelector.CreateFactory"/> instead draws a seed from it
    /// for each selector it creates.
    /// </remarks>
    public Random? Random { get; set; }

    /// <summary>
    /// Gets or sets τ, the time constant of the peak-EWMA latency (Finagle's <c>decayTime</c>): a sample at or below the
    /// estimate is weighted 1 − exp(−Δt/τ), and between samples the estimate decays by exp(−Δt/τ).
    /// </summary>
    /// <value>10 seconds.</value>
    public TimeSpan DecayTime { get; set; } = TimeSpan.FromSeconds(10);

    internal void Validate()
    {
        if (DecayTime <= TimeSpan.Zero || DecayTime == TimeSpan.MaxValue)
        {
            throw new ArgumentOutOfRangeException(nameof(DecayTime), DecayTime, "The decay time must be a positive, finite duration.");
        }
    }
}
