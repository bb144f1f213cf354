// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>A semaphore-guarded resource of each instance of a service.</summary>
/// <remarks>
/// The kind decides when the simulator acquires it: a <see cref="ResourceKinds.ThreadPool"/> permit is held by every
/// request handled at the instance for the whole handler (so requests waiting on downstream calls keep their thread);
/// a <see cref="ResourceKinds.ConnectionPool"/> permit is held by every outgoing call until its reply or timeout;
/// <see cref="ResourceKinds.Disk"/> and <see cref="ResourceKinds.Compute"/> are used only by stages that name them.
/// </remarks>
public sealed class ResourceSpec
{
    /// <summary>Gets or sets the resource's name, unique within its service; stages refer to it by this name.</summary>
    public string? Name { get; set; }

    /// <summary>Gets or sets the kind: one of <see cref="ResourceKinds.All"/>.</summary>
    public string? Kind { get; set; }

    /// <summary>Gets or sets the number of permits (threads, connections, disk slots, cores).</summary>
    /// <value>1.</value>
    public int Capacity { get; set; } = 1;

    /// <summary>Gets or sets how many sub-tasks may wait; beyond it the request is dropped with reason queue-full.</summary>
    /// <value>100,000 (in effect unbounded, so overload shows up as queueing and timeouts).</value>
    public int MaxQueueLength { get; set; } = 100_000;
}
