// SPDX-License-Identifier: Apache-2.0

using System.Text.Json;
using System.Text.Json.Serialization;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Everything one simulated run of a scenario under one configuration measured.</summary>
/// <remarks>Contains nothing that depends on the host (no wall-clock times), so two runs with one seed are equal as JSON.</remarks>
public sealed class TopologyRunResult
{
    /// <summary>Gets the scenario's name.</summary>
    public required string Scenario { get; init; }

    /// <summary>Gets the configuration's name.</summary>
    public required string Configuration { get; init; }

    /// <summary>Gets the seed.</summary>
    public int Seed { get; init; }

    /// <summary>Gets how long workloads offered requests, seconds.</summary>
    public double DurationSeconds { get; init; }

    /// <summary>Gets the warm-up excluded from the measured window, seconds.</summary>
    public double WarmUpSeconds { get; init; }

    /// <summary>Gets the virtual time at which the run ended (after the last request's outcome), seconds.</summary>
    public double EndSeconds { get; init; }

    /// <summary>Gets the number of discrete events the clock ran.</summary>
    public long Events { get; init; }

    /// <summary>Gets the number of requests offered over the whole run, warm-up included.</summary>
    public long Requests { get; init; }

    /// <summary>Gets the per-workflow results over the measured window.</summary>
    public required IReadOnlyList<WorkflowRunResult> Workflows { get; init; }

    /// <summary>Gets the utilisation of each resource of each service over the measured window.</summary>
    public required IReadOnlyList<ResourceUtilization> Resources { get; init; }

    /// <summary>Gets the per-second time series of each workflow, over the whole run.</summary>
    public required IReadOnlyList<WorkflowSecond> TimeSeries { get; init; }

    /// <summary>Gets Σσ per service and workflow each second; empty without rate control.</summary>
    public required IReadOnlyList<TierRateSecond> Rates { get; init; }

    /// <summary>Gets a value indicating whether the run was stopped early (Ctrl-C): it covers what ran until then, and every request offered still has its outcome.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingDefault)]
    public bool Interrupted { get; init; }

    /// <summary>Gets the result of one workflow.</summary>
    /// <param name="workflow">The workflow's name.</param>
    /// <returns>The result.</returns>
    /// <exception cref="KeyNotFoundException">No workflow has that name.</exception>
    public WorkflowRunResult this[string workflow]
    {
        get
        {
            foreach (var result in Workflows)
            {
                if (result.Workflow == workflow)
                {
                    return result;
                }
            }

            throw new KeyNotFoundException($"No workflow '{workflow}' in the result.");
        }
    }

    /// <summary>Writes the result as indented JSON (raw latencies left out).</summary>
    /// <returns>The JSON text.</returns>
    public string ToJson() => JsonSerializer.Serialize(this, TopologyRunResultJsonContext.Default.TopologyRunResult);
}
