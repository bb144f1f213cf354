// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>An open-loop workload in a run: its generator and the time of its next arrival.</summary>
internal sealed class OpenWorkload(WorkloadDriver driver, WorkflowDef workflow, WorkloadGenerator generator)
{
    public WorkloadDriver Driver { get; } = driver;

    public WorkflowDef Workflow { get; } = workflow;

    public WorkloadGenerator Generator { get; } = generator;

    /// <summary>Gets or sets the next arrival in exact seconds (kept as a double so rounding to ticks never drifts).</summary>
    public double Next { get; set; }
}

/// <summary>A closed-loop workload in a run: its generator and its clients so far.</summary>
internal sealed class ClosedWorkload(WorkloadDriver driver, WorkflowDef workflow, WorkloadGenerator generator)
{
    public WorkloadDriver Driver { get; } = driver;

    public WorkflowDef Workflow { get; } = workflow;

    public WorkloadGenerator Generator { get; } = generator;

    public List<ClosedLoopClient> Clients { get; } = [];
}

/// <summary>A closed-loop client: one request outstanding at a time, then a think time.</summary>
internal sealed class ClosedLoopClient(ClosedWorkload workload, int number)
{
    public ClosedWorkload Workload { get; } = workload;

    /// <summary>Gets the client's number within its workload; clients at or past the current count retire.</summary>
    public int Number { get; } = number;

    /// <summary>Gets or sets a value indicating whether the client is among the workload's current clients.</summary>
    public bool Active { get; set; }

    /// <summary>Gets or sets a value indicating whether the client has a request outstanding or a send scheduled.</summary>
    public bool Busy { get; set; }
}
