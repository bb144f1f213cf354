// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>What the guarantee reads of one workflow in one run.</summary>
/// <param name="Offered">Requests offered in the measured window.</param>
/// <param name="Completed">Requests completed (the workflow's goodput).</param>
/// <param name="RefusedAtEntry">Requests refused by admission (rate-limited, or a deadline it cannot meet), not failed or dropped deeper.</param>
/// <param name="P99Ms">The p99 latency of completed requests, in milliseconds.</param>
/// <param name="Samples">How many completed requests the p99 is read from.</param>
public sealed record WorkflowOutcome(long Offered, long Completed, long RefusedAtEntry, double P99Ms, long Samples)
{
    /// <summary>The drop reasons that mean admission refused the request rather than losing it deeper.</summary>
    public static IReadOnlyList<string> RefusalReasons { get; } = ["rate-limited", "deadline-infeasible", "deadline-expired"];

    /// <summary>Reads a workflow's outcome from a simulated run.</summary>
    /// <param name="result">The workflow's result.</param>
    /// <returns>The outcome.</returns>
    public static WorkflowOutcome From(WorkflowRunResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var refused = result.DroppedByReason.Where(r => RefusalReasons.Contains(r.Key)).Sum(r => r.Value);
        return new WorkflowOutcome(result.Offered, result.Completed, refused, result.LatencyMs.P99, result.LatencyMs.Count);
    }

    /// <summary>Reads every workflow's outcome from a simulated run.</summary>
    /// <param name="result">The run.</param>
    /// <returns>The outcomes by workflow.</returns>
    public static IReadOnlyDictionary<string, WorkflowOutcome> From(TopologyRunResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return result.Workflows.ToDictionary(w => w.Workflow, From, StringComparer.Ordinal);
    }
}
