// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>
/// What a downstream instance tells one caller: for each workflow, the rate of requests it will take from that
/// caller (its own σ in proportion to the caller's share of its demand).
/// </summary>
public sealed class DownstreamRateAnswer
{
    /// <summary>Creates an answer.</summary>
    /// <param name="rates">The per-workflow rates; a workflow not listed is not limited by this instance.</param>
    /// <exception cref="ArgumentException">A rate is NaN or negative.</exception>
    public DownstreamRateAnswer(IReadOnlyList<WorkflowRate> rates)
    {
        ArgumentNullException.ThrowIfNull(rates);
        foreach (var rate in rates)
        {
            if (double.IsNaN(rate.Rate) || rate.Rate < 0)
            {
                throw new ArgumentException($"The rate for workflow '{rate.Workflow}' is {rate.Rate}; rates must be non-negative.", nameof(rates));
            }
        }

        Rates = rates;
    }

    /// <summary>Gets an answer that limits nothing.</summary>
    public static DownstreamRateAnswer Empty { get; } = new([]);

    /// <summary>
    /// Gets the answer of an instance that takes no part in rate exchange (it runs no Cicero): it limits nothing, and a
    /// service all of whose instances answer so reports <see cref="DownstreamStatus.Unsupported"/>.
    /// </summary>
    public static DownstreamRateAnswer Unsupported { get; } = new([]) { IsUnsupported = true };

    /// <summary>Gets a value indicating whether this is the <see cref="Unsupported"/> answer.</summary>
    public bool IsUnsupported { get; private init; }

    /// <summary>Gets the per-workflow rates.</summary>
    public IReadOnlyList<WorkflowRate> Rates { get; }
}
