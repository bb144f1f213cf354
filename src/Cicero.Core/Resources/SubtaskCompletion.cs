// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Resources;

/// <summary>A sub-task that released its permit, with the service time it used.</summary>
/// <param name="Workflow">The workflow the sub-task belongs to.</param>
/// <param name="Context">The request's context.</param>
/// <param name="Cost">The expected cost the sub-task declared.</param>
/// <param name="SubtaskType">The sub-task type.</param>
/// <param name="ServiceTime">How long the permit was held.</param>
public readonly record struct SubtaskCompletion(WorkflowSlot Workflow, RequestContext Context, double Cost, int SubtaskType, TimeSpan ServiceTime);
