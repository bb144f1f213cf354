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

    /// <summary>Gets the trace request this replays, if any: its sequence, fan-out and service times override the plan's.</summary>
    public TraceReplayRequest? Trace { get; init; }

    /// <summary>Gets the request's own deadline, ms, if any; it wins over the workflow's and the configuration's.</summary>
    public double? DeadlineMs { get; init; }

    /// <summary>
    /// Gets a value indicating whether the deadline only guides scheduling and admission: calls do not time out when it
    /// passes (the RPC timeout still applies), so a late request completes late rather than failing.
    /// </summary>
    public bool SoftDeadline { get; init; }

    /// <summary>Gets the request's own end-to-end estimate (service time and load), if any; it replaces the workflow's learned one.</summary>
    public ProgressDelta? Estimate { get; init; }

    /// <summary>Gets the closed-loop replay client that sent the request, or -1.</summary>
    public int ReplayClient { get; init; } = -1;

    /// <summary>Gets or sets a value indicating whether the request has its outcome; a second outcome is ignored.</summary>
    public bool Finished { get; set; }

    /// <summary>Gets or sets the entry instance that admitted the request; <see langword="null"/> until admitted.</summary>
    public SimInstance? AdmittedBy { get; set; }

    /// <summary>Gets or sets when it was admitted, as a timestamp of the entry instance's clock.</summary>
    public long AdmittedAt { get; set; }

    /// <summary>Gets or sets when the client gives up (<see cref="RequestTimeouts"/>).</summary>
    public long TimeoutAt { get; set; }

    /// <summary>Gets or sets a value indicating whether the request is in <see cref="RequestTimeouts"/>' list.</summary>
    public bool AwaitsTimeout { get; set; }

    /// <summary>Gets or sets the request before this one in <see cref="RequestTimeouts"/>' list.</summary>
    public SimRequest? TimeoutPrevious { get; set; }

    /// <summary>Gets or sets the request after this one in <see cref="RequestTimeouts"/>' list.</summary>
    public SimRequest? TimeoutNext { get; set; }
}

