// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// Options of the <see cref="C3ReplicaSelector"/> (C3 paper §4; dissertation §4.2-4.3). Defaults are the paper's, and
/// where the paper is silent, the values the authors' simulator uses.
/// </summary>
public sealed class C3Options
{
    /// <summary>Gets or sets n, the number of clients, which weighs the concurrency compensation os · n.</summary>
    /// <value>1. The paper sets it to the number of clients in the system.</value>
    public double ClientCount { get; set; } = 1;

    /// <summary>Gets or sets the exponent b of the queue-size estimate in the score.</summary>
    /// <value>3 (cubic).</value>
    public double ScoreExponent { get; set; } = 3;

    /// <summary>Gets or sets the weight of a new sample in the EWMAs of response time, service time and queue size.</summary>
    /// <value>0.9.</value>
    public double EwmaWeight { get; set; } = 0.9;

    /// <summary>Gets the per-replica cubic rate control options.</summary>
    public CubicRateOptions Rate { get; } = new();

    internal void Validate()
    {
        if (!(ClientCount >= 1) || !double.IsFinite(ClientCount))
        {
            throw new ArgumentOutOfRangeException(nameof(ClientCount), ClientCount, "The client count n must be at least 1.");
        }

        if (!(ScoreExponent >= 1) || !double.IsFinite(ScoreExponent))
        {
            throw new ArgumentOutOfRangeException(nameof(ScoreExponent), ScoreExponent, "The score exponent b must be at least 1.");
        }

        if (!(EwmaWeight > 0 && EwmaWeight <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(EwmaWeight), EwmaWeight, "Must be in (0, 1].");
        }

        Rate.Validate();
    }
}
