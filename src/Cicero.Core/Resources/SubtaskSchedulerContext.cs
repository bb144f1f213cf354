// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>What a <see cref="SubtaskSchedulerFactory"/> knows about the resource it creates a scheduler for.</summary>
/// <param name="ResourceName">The resource's name.</param>
/// <param name="Capacity">The resource's permits at creation.</param>
/// <param name="TimestampFrequency">Timestamps per second of the resource's clock.</param>
/// <param name="Registry">The workflows the resource serves; per-workflow state can be indexed by slot.</param>
public sealed record SubtaskSchedulerContext(string ResourceName, int Capacity, long TimestampFrequency, WorkflowRegistry Registry);
