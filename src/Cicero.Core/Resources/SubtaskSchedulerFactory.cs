// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Resources;

/// <summary>Creates the scheduler of one resource; registered and looked up by <see cref="Name"/>.</summary>
public abstract class SubtaskSchedulerFactory
{
    /// <summary>Gets the name the scheduler is configured by, such as "fifo" (see <see cref="SubtaskSchedulers"/>).</summary>
    public abstract string Name { get; }

    /// <summary>Creates a scheduler for one resource.</summary>
    /// <param name="context">The resource it will serve.</param>
    /// <returns>A new scheduler; schedulers are stateful and never shared between resources.</returns>
    public abstract ISubtaskScheduler Create(SubtaskSchedulerContext context);
}
