// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Scheduling;

/// <summary>Options of the <see cref="CakeShareScheduler"/>: initial proportional shares and reservations.</summary>
public sealed class CakeShareOptions
{
    /// <summary>Gets each workflow's proportional share by id (relative; they need not add up to 1).</summary>
    public Dictionary<string, double> Shares { get; } = new(StringComparer.Ordinal);

    /// <summary>Gets the permits reserved for each workflow by id.</summary>
    public Dictionary<string, int> Reservations { get; } = new(StringComparer.Ordinal);

    /// <summary>Gets or sets the share of workflows not listed.</summary>
    /// <value>1.</value>
    public double DefaultShare { get; set; } = 1;

    /// <summary>Gets or sets where a sub-task's cost comes from when shares are charged.</summary>
    /// <value><see cref="SubtaskCostSource.Declared"/> (Cake charges per request or chunk).</value>
    public SubtaskCostSource CostSource { get; set; } = SubtaskCostSource.Declared;

    internal void Validate()
    {
        if (!(DefaultShare > 0) || !double.IsFinite(DefaultShare))
        {
            throw new ArgumentOutOfRangeException(nameof(DefaultShare), DefaultShare, "The default share must be a positive number.");
        }

        foreach (var (workflow, share) in Shares)
        {
            if (!(share > 0) || !double.IsFinite(share))
            {
                throw new ArgumentOutOfRangeException(nameof(Shares), share, $"The share of workflow '{workflow}' must be a positive number.");
            }
        }

        foreach (var (workflow, reserved) in Reservations)
        {
            ArgumentOutOfRangeException.ThrowIfNegative(reserved, $"{nameof(Reservations)}[{workflow}]");
        }
    }
}
