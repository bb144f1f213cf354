// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.Resources;

// The resource's measurements: per-workflow load, demand, utilization and service time, closed once per interval.
public sealed partial class ResourceSemaphore
{
    /// <summary>
    /// Gets the workflow's load l, its demand on the resource: the average number of permits it held plus the average
    /// number of its sub-tasks waiting, smoothed over intervals. Σ l above the capacity means the resource is a bottleneck.
    /// </summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The load, in permits.</returns>
    public double GetLoad(WorkflowSlot workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        lock (_lock)
        {
            return _usage.GetLoad(workflow.Index);
        }
    }

    /// <summary>
    /// Gets the workflow's demand on the resource, its offered load: sub-tasks arriving per second times their mean
    /// service time, smoothed over intervals. Unlike <see cref="GetLoad"/> it stays below the capacity on a busy but
    /// healthy resource and exceeds it only when work arrives faster than the resource serves it.
    /// </summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The demand, in permits.</returns>
    public double GetDemand(WorkflowSlot workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        lock (_lock)
        {
            return _usage.GetDemand(workflow.Index);
        }
    }

    /// <summary>Gets the sum over workflows of their demand (<see cref="GetDemand"/>), in permits.</summary>
    public double TotalDemand
    {
        get
        {
            lock (_lock)
            {
                return _usage.TotalDemand;
            }
        }
    }

    /// <summary>
    /// Gets how many control intervals in a row, up to the last one closed, the wait queue never emptied: a standing
    /// queue, the sign that arrivals outpace service rather than merely bunch (CoDel's criterion).
    /// </summary>
    public int StandingQueueIntervals
    {
        get
        {
            lock (_lock)
            {
                return _usage.StandingQueueIntervals;
            }
        }
    }

    /// <summary>Gets the workflow's utilization of this resource: the average permits it held divided by the capacity.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The utilization in [0, 1] in steady state.</returns>
    public double GetUtilization(WorkflowSlot workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        lock (_lock)
        {
            return _usage.GetBusy(workflow.Index) / _capacity;
        }
    }

    /// <summary>Gets the average service time of the workflow's sub-tasks here, if any has completed.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="subtaskType">A sub-task type, or 0 for all of the workflow's sub-tasks.</param>
    /// <returns>The average, or <see langword="null"/> before the first completion.</returns>
    public TimeSpan? GetServiceTime(WorkflowSlot workflow, int subtaskType = 0)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        lock (_lock)
        {
            return _usage.GetServiceTime(workflow.Index, subtaskType);
        }
    }

    internal void CloseInterval(long now, double seconds)
    {
        lock (_lock)
        {
            _grants.AccountHeld(_usage, now);
            _usage.CloseInterval(seconds, Registry.Count, now);
        }
    }
}
