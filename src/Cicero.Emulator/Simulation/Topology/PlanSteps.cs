// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>A compiled stage of a workflow plan; starting it creates the frame that runs it for one request.</summary>
internal abstract class PlanStep
{
    public abstract void Start(Handler handler, IStepParent parent);
}

/// <summary>Hold a resource of the handling instance for a sampled service time.</summary>
internal sealed class UseStep(int resource, TimeDistribution serviceTime) : PlanStep
{
    public int Resource { get; } = resource;

    public TimeDistribution ServiceTime { get; } = serviceTime;

    public override void Start(Handler handler, IStepParent parent) => new UseFrame(handler, this, parent).Start();
}

/// <summary>Call another service <see cref="Count"/> times in parallel; the callee runs <see cref="Body"/>.</summary>
internal sealed class CallStep(ServiceDef target, RouteDef? route, int count, string replicas, PlanStep[] body) : PlanStep
{
    public ServiceDef Target { get; } = target;

    public RouteDef? Route { get; } = route;

    public int Count { get; } = count;

    public bool ToAllReplicas { get; } = replicas == ReplicaTargets.All && route?.Strategy == RoutingStrategies.Blocks;

    public bool ToPrimary { get; } = replicas == ReplicaTargets.Primary;

    public PlanStep[] Body { get; } = body;

    public override void Start(Handler handler, IStepParent parent)
    {
        var count = Count;
        if (handler.Request.Trace is { } trace && Target.Name == DefaultTopology.BlockService)
        {
            // A replayed trace request calls the block servers as many times as it did.
            count = trace.Costs.FanOut;
            if (count == 0)
            {
                parent.OnStepDone(Outcome.Ok);
                return;
            }
        }

        var copies = ToAllReplicas ? Route!.Replication : 1;
        var calls = count * copies;
        if (calls == 1)
        {
            new RpcFrame(handler, this, parent, -1).Start();
            return;
        }

        var join = new Join(parent, calls);
        for (var c = 0; c < count; c++)
        {
            if (!ToAllReplicas)
            {
                new RpcFrame(handler, this, join, -1).Start();
                continue;
            }

            // One block per call; its copies all get the write.
            var start = RpcFrame.PickBlockGroup(handler, this);
            for (var r = 0; r < copies; r++)
            {
                new RpcFrame(handler, this, join, start, r).Start();
            }
        }
    }
}

/// <summary>Run branches at once and join when all are done.</summary>
internal sealed class ParallelStep(PlanStep[][] branches) : PlanStep
{
    public PlanStep[][] Branches { get; } = branches;

    public override void Start(Handler handler, IStepParent parent)
    {
        var join = new Join(parent, Branches.Length);
        foreach (var branch in Branches)
        {
            new Sequence(handler, branch, join).Run();
        }
    }
}
