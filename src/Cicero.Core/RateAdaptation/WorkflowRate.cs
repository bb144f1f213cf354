// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <summary>An admission rate for one workflow, requests per second (+∞ for no limit).</summary>
/// <param name="workflow">The workflow.</param>
/// <param name="rate">The rate.</param>
public readonly struct WorkflowRate(WorkflowId workflow, double rate)
{
    /// <summary>Gets the workflow.</summary>
    public WorkflowId Workflow { get; } = workflow;

    /// <summary>Gets the rate, requests per second (+∞ for no limit).</summary>
    public double Rate { get; } = rate;
}
