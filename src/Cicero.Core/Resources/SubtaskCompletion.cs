// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>A sub-task that released its permit, with the service time it used.</summary>
/// <param name="workflow">The workflow the sub-task belongs to.</param>
/// <param name="context">The request's context.</param>
/// <param name="cost">The expected cost the sub-task declared.</param>
/// <param name="subtaskType">The sub-task type.</param>
/// <param name="serviceTime">How long the permit was held.</param>
public readonly struct SubtaskCompletion(WorkflowSlot workflow, RequestContext context, double cost, int subtaskType, TimeSpan serviceTime)
{
    /// <summary>Gets the workflow the sub-task belongs to.</summary>
    public WorkflowSlot Workflow { get; init; } = workflow;

    /// <summary>Gets the request's context.</summary>
    public RequestContext Context { get; init; } = context;

    /// <summary>Gets the expected cost the sub-task declared.</summary>
    public double Cost { get; init; } = cost;

    /// <summary>Gets the sub-task type.</summary>
    public int SubtaskType { get; init; } = subtaskType;

    /// <summary>Gets how long the permit was held.</summary>
    public TimeSpan ServiceTime { get; init; } = serviceTime;
}
