// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Grpc.Configuration;

/// <summary>A resource a service guards: a named capacity, a queue bound, and the scheduler that orders its waiters.</summary>
public sealed class CiceroResourceOptions
{
    /// <summary>Gets or sets the resource's name (e.g. <c>disk</c>); required and unique.</summary>
    public string Name { get; set; } = string.Empty;

    /// <summary>Gets or sets the number of permits; at least 1.</summary>
    public int Capacity { get; set; } = 1;

    /// <summary>Gets or sets the most sub-tasks allowed to wait; at least 0.</summary>
    public int MaxQueueLength { get; set; } = 1024;

    /// <summary>Gets or sets the scheduler's name (<c>fifo</c>, <c>drr</c>, <c>edf</c>, <c>lstf</c>, ...).</summary>
    public string Scheduler { get; set; } = SubtaskSchedulers.Fifo;

    /// <summary>
    /// Gets or sets a value indicating whether a waiting sub-task whose request's deadline has passed is refused when its
    /// turn comes (<c>ResourceSemaphoreOptions.DropExpiredWaiters</c>); the call then ends <c>RESOURCE_EXHAUSTED</c>
    /// with <c>deadline_infeasible</c>.
    /// </summary>
    /// <value><see langword="false"/>.</value>
    public bool DropExpiredWaiters { get; set; }

    /// <summary>Copies these options, for the snapshot Cicero runs on.</summary>
    internal CiceroResourceOptions Copy() => (CiceroResourceOptions)MemberwiseClone();
}
