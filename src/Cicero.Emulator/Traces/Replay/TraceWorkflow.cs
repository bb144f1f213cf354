// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Traces.Replay;

/// <summary>One workflow of a replay plan: a tenant and operation of the trace, what its requests did, and its DAG.</summary>
public sealed class TraceWorkflow
{
    internal TraceWorkflow(int index, string name, string tenant, string operation, bool isWrite)
    {
        Index = index;
        Name = name;
        Tenant = tenant;
        Operation = operation;
        IsWrite = isWrite;
    }

    /// <summary>Gets its index in <see cref="TraceReplayPlan.Workflows"/> (what <see cref="Simulation.Topology.TraceReplayRequest.Workflow"/> holds).</summary>
    public int Index { get; }

    /// <summary>Gets the workflow's name in the scenario: <c>{tenant}.{op}</c> (with <c>+2</c>, <c>+3</c>... on a rare clash).</summary>
    public string Name { get; }

    /// <summary>Gets the trace's tenant.</summary>
    public string Tenant { get; }

    /// <summary>Gets the trace's operation.</summary>
    public string Operation { get; }

    /// <summary>Gets whether the operation writes (see <see cref="TraceCostModel.WriteOperations"/>).</summary>
    public bool IsWrite { get; }

    /// <summary>Gets how many requests the trace has for it.</summary>
    public long Requests { get; internal set; }

    /// <summary>Gets the first request's arrival on the run's timeline, seconds.</summary>
    public double FirstArrivalSeconds { get; internal set; }

    /// <summary>Gets the mean fan-out of its requests.</summary>
    public double MeanFanOut { get; internal set; }

    /// <summary>Gets the largest fan-out of its requests.</summary>
    public int MaxFanOut { get; internal set; }

    /// <summary>Gets the mean Auth service time of its requests, ms.</summary>
    public double MeanAuthMs { get; internal set; }

    /// <summary>Gets the mean PS compute time of its requests, ms.</summary>
    public double MeanPsMs { get; internal set; }

    /// <summary>Gets the mean service time of its block-server sub-requests, ms (0 without any).</summary>
    public double MeanBsMs { get; internal set; }

    /// <summary>Gets the sum of its request bytes.</summary>
    public long RequestBytes { get; internal set; }

    /// <summary>Gets the sum of its response bytes.</summary>
    public long ResponseBytes { get; internal set; }

    /// <summary>
    /// Gets the workflow's DAG for the scenario: call Auth (cpu), then call PS, which calls BS <c>round(mean fan-out)</c>
    /// times in parallel (reads: the selected copy; writes: the primary) and then computes. Service times are log-normal
    /// with the workflow's mean and coefficient of variation (constant when they do not vary). The requests themselves
    /// carry their exact fan-out and times (<see cref="Simulation.Topology.TraceReplayRequest.Costs"/>).
    /// </summary>
    public WorkflowSpec Spec { get; internal set; } = new();
}
