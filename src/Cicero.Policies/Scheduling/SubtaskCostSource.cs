// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Scheduling;

/// <summary>Where a cost-aware scheduler takes a sub-task's cost from.</summary>
public enum SubtaskCostSource
{
    /// <summary>The average service time measured for the workflow's sub-tasks at this resource (the local model).</summary>
    MeasuredServiceTime = 0,

    /// <summary>The cost the caller declared when acquiring.</summary>
    Declared = 1,
}
