// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>One end-to-end request, from its arrival at an entry instance to its one outcome.</summary>
internal sealed class SimRequest(TopologySimulation simulation, long id, WorkflowDef workflow, int partition, long arrivedAt, bool measured, ClosedLoopClient? client)
{
    public TopologySimulation Simulation { get; } = simulation;

    public long Id { get; } = id;

    public WorkflowDef Workflow { get; } = workflow;

    /// <summary>Gets the partition of the workflow's table the request touches (consistent hashing and blocks).</summary>
    public int Partition { get; } = partition;

    public long ArrivedAt { get; } = arrivedAt;

    /// <summary>Gets a value indicating whether the request arrived inside the measured window (after the warm-up).</summary>
    public bool Measured { get; } = measured;

    public ClosedLoopClient? Client { get; } = client;

    public RequestContext? Context { get; set; }

    /// <summary>Gets or sets a value indicating whether the request has its outcome; a second outcome is ignored.</summary>
    public bool Finished { get; set; }
}

