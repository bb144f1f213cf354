// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Scheduling;

/// <summary>Options of the <see cref="StrictPriorityScheduler"/>.</summary>
public sealed class StrictPriorityOptions
{
    /// <summary>Gets the priority of each workflow by id; a higher value runs first.</summary>
    public Dictionary<string, int> Priorities { get; } = new(StringComparer.Ordinal);

    /// <summary>Gets or sets the priority of workflows not listed.</summary>
    /// <value>0.</value>
    public int DefaultPriority { get; set; }
}
