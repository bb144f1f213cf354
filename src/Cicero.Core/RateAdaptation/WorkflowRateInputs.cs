// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <summary>What a rate-limit policy knows about one workflow at a control step.</summary>
/// <param name="workflow">The workflow.</param>
/// <param name="currentRate">The rate σ announced at the previous step (the initial rate at the first).</param>
/// <param name="downstreamRate">The downstream bottleneck rate σ′ from Algorithm 3; +∞ when nothing downstream constrains it.</param>
/// <param name="arrivalRate">The smoothed arrival rate, requests per second.</param>
/// <param name="admittedRate">The smoothed admitted rate, requests per second.</param>
public readonly struct WorkflowRateInputs(
    WorkflowSlot workflow,
    double currentRate,
    double downstreamRate,
    double arrivalRate,
    double admittedRate)
{
    /// <summary>Gets the workflow.</summary>
    public WorkflowSlot Workflow { get; init; } = workflow;

    /// <summary>Gets the rate σ announced at the previous step (the initial rate at the first).</summary>
    public double CurrentRate { get; init; } = currentRate;

    /// <summary>Gets the downstream bottleneck rate σ′ from Algorithm 3; +∞ when nothing downstream constrains it.</summary>
    public double DownstreamRate { get; init; } = downstreamRate;

    /// <summary>Gets the smoothed arrival rate, requests per second.</summary>
    public double ArrivalRate { get; init; } = arrivalRate;

    /// <summary>Gets the smoothed admitted rate, requests per second.</summary>
    public double AdmittedRate { get; init; } = admittedRate;

    /// <summary>
    /// Gets a value indicating whether this process is a leaf for the workflow: no downstream service constrains it, either
    /// because it calls none or because their answers expired.
    /// </summary>
    public bool IsLeaf => double.IsPositiveInfinity(DownstreamRate);

    /// <summary>
    /// Gets how many requests admitted here ended well for their callers in the last interval. Only an entry point
    /// learns its callers' outcomes; elsewhere it is 0.
    /// </summary>
    public long Succeeded { get; init; }

    /// <summary>
    /// Gets how many requests admitted here failed for their callers in the last interval, timed out or dropped further
    /// down (not refused here). Only an entry point learns its callers' outcomes; elsewhere it is 0.
    /// </summary>
    public long Failed { get; init; }
}
