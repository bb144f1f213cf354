// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// One stage of a workflow's DAG, run at the instance that handles the request. Exactly one of three shapes:
/// <list type="bullet">
/// <item><description><see cref="Use"/>: hold a resource of this service for a service time drawn from <see cref="ServiceTime"/>;</description></item>
/// <item><description><see cref="Call"/>: call another service <see cref="Count"/> times (in parallel or in sequence); the callee runs <see cref="Stages"/>;</description></item>
/// <item><description><see cref="Parallel"/>: run several branches (each a list of stages) at once and join.</description></item>
/// </list>
/// </summary>
public sealed class StageSpec
{
    /// <summary>Gets or sets the resource (of the current service, kind disk or compute) the stage holds.</summary>
    public string? Use { get; set; }

    /// <summary>Gets or sets how long the resource is held, for a <see cref="Use"/> stage.</summary>
    public DistributionSpec? ServiceTime { get; set; }

    /// <summary>Gets or sets the service a call stage calls.</summary>
    public string? Call { get; set; }

    /// <summary>Gets or sets how many calls the stage makes (the fan-out).</summary>
    /// <value>1.</value>
    public int Count { get; set; } = 1;

    /// <summary>Gets or sets whether the <see cref="Count"/> calls go out at once (true) or one after another.</summary>
    /// <value><see langword="true"/>.</value>
    public bool InParallel { get; set; } = true;

    /// <summary>
    /// Gets or sets, for calls over a <see cref="RoutingStrategies.Blocks"/> route, which copies of the block a call goes
    /// to: one of <see cref="ReplicaTargets.Values"/>.
    /// </summary>
    /// <value>"selected": the replica selector picks one copy.</value>
    public string Replicas { get; set; } = ReplicaTargets.Selected;

    /// <summary>Gets or sets what the callee runs, in order, for a call stage.</summary>
    public IList<StageSpec>? Stages { get; set; }

    /// <summary>Gets or sets the branches of a parallel stage; each branch is a list of stages run in order.</summary>
    public IList<IList<StageSpec>>? Parallel { get; set; }
}
