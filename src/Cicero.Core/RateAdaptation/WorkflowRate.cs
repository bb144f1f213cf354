// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <summary>An admission rate for one workflow, requests per second (+∞ for no limit).</summary>
/// <param name="Workflow">The workflow.</param>
/// <param name="Rate">The rate.</param>
public readonly record struct WorkflowRate(WorkflowId Workflow, double Rate);
