// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>Options of the <see cref="StaticRatePolicy"/>: a fixed local rate per workflow.</summary>
public sealed class StaticRateOptions
{
    /// <summary>
    /// Gets the local rate σ^local of each workflow by id (ordinal, case-sensitive), in requests per second;
    /// +∞ means no local limit and 0 admits nothing.
    /// </summary>
    /// <value>Empty: every workflow gets <see cref="DefaultRate"/>.</value>
    public Dictionary<string, double> Rates { get; } = new(StringComparer.Ordinal);

    /// <summary>Gets or sets the local rate of workflows not listed in <see cref="Rates"/>, in requests per second.</summary>
    /// <value>+∞: no local limit, so unlisted workflows are admitted at their downstream rate σ′.</value>
    public double DefaultRate { get; set; } = double.PositiveInfinity;

    internal void Validate()
    {
        if (double.IsNaN(DefaultRate) || DefaultRate < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(DefaultRate), DefaultRate, "The default rate must be non-negative (or +∞).");
        }

        foreach (var (workflow, rate) in Rates)
        {
            if (string.IsNullOrWhiteSpace(workflow))
            {
                throw new ArgumentException("A workflow id in Rates is empty.", nameof(Rates));
            }

            if (double.IsNaN(rate) || rate < 0)
            {
                throw new ArgumentOutOfRangeException(nameof(Rates), rate, $"The rate of workflow '{workflow}' must be non-negative (or +∞).");
            }
        }
    }
}
