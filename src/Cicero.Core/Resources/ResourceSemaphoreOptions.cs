// SPDX-License-Identifier: Apache-2.0

using System.ComponentModel.DataAnnotations;

namespace Cicero.Resources;

/// <summary>Options of a <see cref="ResourceSemaphore"/>.</summary>
public sealed class ResourceSemaphoreOptions
{
    /// <summary>Gets or sets the resource's name, unique within a process; it tags the resource's metrics.</summary>
    [Required]
    public string Name { get; set; } = string.Empty;

    /// <summary>Gets or sets the number of permits: threads, connections, disk slots.</summary>
    /// <value>1.</value>
    [Range(1, int.MaxValue)]
    public int Capacity { get; set; } = 1;

    /// <summary>Gets or sets how many sub-tasks may wait; beyond it a request is turned away with <c>QueueFull</c>.</summary>
    /// <value>1024.</value>
    [Range(0, int.MaxValue)]
    public int MaxQueueLength { get; set; } = 1024;

    /// <summary>
    /// Gets or sets a value indicating whether the service time of each sub-task is added to its request's progress
    /// counters (st += held time, θ += held time / capacity).
    /// </summary>
    /// <value><see langword="true"/>.</value>
    public bool TrackRequestProgress { get; set; } = true;

    /// <summary>
    /// Gets or sets a value indicating whether a waiting sub-task that cannot finish by its request's deadline is
    /// refused (<see cref="DropReason.DeadlineInfeasible"/>) when its turn comes, instead of being served:
    /// the deadline has passed, or this resource's mean service time for the sub-task's workflow and type (what is left of
    /// the request's own estimate, if it carries one and that is shorter) would end past it. Its caller has given up or
    /// will have, so the work would be wasted, and under overload such work can keep
    /// a queue full of requests that all miss their deadlines (section 5.2.5's feasibility test, at the resource).
    /// </summary>
    /// <value><see langword="false"/>: every waiter is served.</value>
    public bool DropExpiredWaiters { get; set; }

    /// <summary>
    /// Gets or sets a value indicating whether a waiter's continuation runs on the thread pool rather than inline on the
    /// thread that released the permit. Turn off only when the continuation is short and the caller wants determinism,
    /// as a single-threaded simulation does.
    /// </summary>
    /// <value><see langword="true"/>.</value>
    public bool RunContinuationsAsynchronously { get; set; } = true;

    internal void Validate()
    {
        if (string.IsNullOrWhiteSpace(Name))
        {
            throw new ArgumentException("A resource needs a name.", nameof(Name));
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(Capacity, 1, nameof(Capacity));
        ArgumentOutOfRangeException.ThrowIfNegative(MaxQueueLength, nameof(MaxQueueLength));
    }
}
