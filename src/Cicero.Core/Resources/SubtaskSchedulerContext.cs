// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>What a <see cref="SubtaskSchedulerFactory"/> knows about the resource it creates a scheduler for.</summary>
/// <param name="resourceName">The resource's name.</param>
/// <param name="capacity">The resource's permits at creation.</param>
/// <param name="timestampFrequency">Timestamps per second of the resource's clock.</param>
/// <param name="registry">The workflows the resource serves; per-workflow state can be indexed by slot.</param>
public sealed class SubtaskSchedulerContext(string resourceName, int capacity, long timestampFrequency, WorkflowRegistry registry)
{
    /// <summary>Gets the resource's name.</summary>
    public string ResourceName { get; } = resourceName;

    /// <summary>Gets the resource's permits at creation.</summary>
    public int Capacity { get; } = capacity;

    /// <summary>Gets timestamps per second of the resource's clock.</summary>
    public long TimestampFrequency { get; } = timestampFrequency;

    /// <summary>Gets the workflows the resource serves; per-workflow state can be indexed by slot.</summary>
    public WorkflowRegistry Registry { get; } = registry;
}
