// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>Load offered for one workflow at its entry service.</summary>
/// <remarks>
/// Kinds: <see cref="WorkloadKinds.Poisson"/> (open loop at <see cref="RatePerSecond"/>),
/// <see cref="WorkloadKinds.OnOff"/> (open-loop Poisson during on periods, silent during off periods) and
/// <see cref="WorkloadKinds.ClosedLoop"/> (<see cref="Clients"/> clients that each send, wait for the outcome, think,
/// and send again). <see cref="Steps"/> change the rate or the number of clients at given times.
/// </remarks>
public sealed class WorkloadSpec
{
    /// <summary>Gets or sets the workflow the requests belong to.</summary>
    public string? Workflow { get; set; }

    /// <summary>Gets or sets the kind: one of <see cref="WorkloadKinds.All"/>.</summary>
    /// <value>"poisson".</value>
    public string Kind { get; set; } = WorkloadKinds.Poisson;

    /// <summary>Gets or sets the mean arrival rate of an open-loop workload, requests per second (0 until a step raises it).</summary>
    public double RatePerSecond { get; set; }

    /// <summary>Gets or sets the number of clients of a closed-loop workload (0 until a step adds some).</summary>
    public int Clients { get; set; }

    /// <summary>Gets or sets a closed-loop client's think time between an outcome and its next request; none when omitted.</summary>
    public DistributionSpec? ThinkTime { get; set; }

    /// <summary>Gets or sets, for an on-off workload, how long each on period lasts, in seconds.</summary>
    /// <value>1.</value>
    public double OnSeconds { get; set; } = 1;

    /// <summary>Gets or sets, for an on-off workload, how long each off period lasts, in seconds.</summary>
    /// <value>1.</value>
    public double OffSeconds { get; set; } = 1;

    /// <summary>Gets or sets when the workload starts, in seconds of virtual time.</summary>
    /// <value>0.</value>
    public double StartSeconds { get; set; }

    /// <summary>Gets or sets when the workload stops; the scenario's duration when omitted.</summary>
    public double? StopSeconds { get; set; }

    /// <summary>Gets or sets step changes of the rate or the number of clients, in time order.</summary>
    public IList<WorkloadStepSpec>? Steps { get; set; }
}
