// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <summary>What a rate-limit policy knows about one workflow at a control step.</summary>
/// <param name="Workflow">The workflow.</param>
/// <param name="CurrentRate">The rate σ announced at the previous step (the initial rate at the first).</param>
/// <param name="DownstreamRate">The downstream bottleneck rate σ′ from Algorithm 3; +∞ when nothing downstream constrains it.</param>
/// <param name="ArrivalRate">The smoothed arrival rate, requests per second.</param>
/// <param name="AdmittedRate">The smoothed admitted rate, requests per second.</param>
public readonly record struct WorkflowRateInputs(
    WorkflowSlot Workflow,
    double CurrentRate,
    double DownstreamRate,
    double ArrivalRate,
    double AdmittedRate)
{
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
