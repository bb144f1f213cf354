// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Scheduling;

/// <summary>Options of the <see cref="DeficitRoundRobinScheduler"/>.</summary>
public sealed class DeficitRoundRobinOptions
{
    /// <summary>Gets each workflow's weight (share) by id; credits per round are in proportion to it.</summary>
    public Dictionary<string, double> Weights { get; } = new(StringComparer.Ordinal);

    /// <summary>Gets or sets the weight of workflows not listed.</summary>
    /// <value>1.</value>
    public double DefaultWeight { get; set; } = 1;

    /// <summary>
    /// Gets or sets the credit a weight-1 workflow receives per round, in cost units; <see langword="null"/> uses the
    /// resource's recent average sub-task cost (one unit before any cost is known), so a turn is about one sub-task.
    /// </summary>
    /// <value><see langword="null"/>.</value>
    public double? Quantum { get; set; }

    /// <summary>Gets or sets where a sub-task's cost comes from.</summary>
    /// <value><see cref="SubtaskCostSource.MeasuredServiceTime"/>.</value>
    public SubtaskCostSource CostSource { get; set; } = SubtaskCostSource.MeasuredServiceTime;

    internal void Validate()
    {
        if (!(DefaultWeight > 0) || !double.IsFinite(DefaultWeight))
        {
            throw new ArgumentOutOfRangeException(nameof(DefaultWeight), DefaultWeight, "The default weight must be a positive number.");
        }

        foreach (var (workflow, weight) in Weights)
        {
            if (!(weight > 0) || !double.IsFinite(weight))
            {
                throw new ArgumentOutOfRangeException(nameof(Weights), weight, $"The weight of workflow '{workflow}' must be a positive number.");
            }
        }

        if (Quantum is { } quantum && (!(quantum > 0) || !double.IsFinite(quantum)))
        {
            throw new ArgumentOutOfRangeException(nameof(Quantum), quantum, "The quantum must be a positive number.");
        }
    }
}
