// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Emulator.Live.Protocol;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Grpc;
using Cicero.Grpc.Context;
using Cicero.Policies.ReplicaSelection;
using Cicero.Resources;
using Cicero.Runtime;
using Grpc.Core;

namespace Cicero.Emulator.Live;

/// <summary>Running a plan body: use stages as real delays on the instance's resources, calls through its clients.</summary>
internal sealed partial class LiveInstance
{
    /// <summary>grpc-dotnet's built-in round-robin policy, for <c>round-robin</c> routes.</summary>
    private const string RoundRobinPolicy = "round_robin";

    public async Task<NodeReply> ExecuteAsync(NodeRequest request, ServerCallContext context)
    {
        var current = CiceroContext.Current ?? throw new InvalidOperationException("The Cicero interceptor did not set the request context.");
        var body = _topology.Plans[request.Body];
        var thread = default(SubtaskLease);
        if (Service.ThreadPool >= 0)
        {
            // A blocking server: the thread is held for the whole handler, downstream waits included.
            thread = await Acquire(Service.ThreadPool, current, context.CancellationToken).ConfigureAwait(false);
        }

        try
        {
            await RunAsync(body, request, current, context.CancellationToken).ConfigureAwait(false);
        }
        finally
        {
            thread.Dispose();
        }

        return new NodeReply { RequestId = request.RequestId };
    }

    private async Task RunAsync(PlanStep[] body, NodeRequest request, RequestContext current, CancellationToken cancellationToken)
    {
        foreach (var step in body)
        {
            switch (step)
            {
                case UseStep use:
                {
                    using var lease = await Acquire(use.Resource, current, cancellationToken).ConfigureAwait(false);
                    await Task.Delay(Sample(use.ServiceTime), TimeProvider.System, cancellationToken).ConfigureAwait(false);
                    break;
                }

                case CallStep call:
                    await CallAllAsync(call, request, current, cancellationToken).ConfigureAwait(false);
                    break;
                case ParallelStep parallel:
                    using (ParallelCalls.Begin())
                    {
                        await Task.WhenAll(parallel.Branches.Select(b => RunAsync(b, request, current, cancellationToken))).ConfigureAwait(false);
                    }

                    break;
            }
        }
    }

    private async Task CallAllAsync(CallStep step, NodeRequest request, RequestContext current, CancellationToken cancellationToken)
    {
        var copies = step.ToAllReplicas ? step.Route!.Replication : 1;
        if (step.Count * copies == 1)
        {
            await CallAsync(step, request, current, groupStart: -1, replica: -1, cancellationToken).ConfigureAwait(false);
            return;
        }

        var calls = new List<Task>(step.Count * copies);
        using (ParallelCalls.Begin())
        {
            for (var c = 0; c < step.Count; c++)
            {
                if (!step.ToAllReplicas)
                {
                    calls.Add(CallAsync(step, request, current, -1, -1, cancellationToken));
                    continue;
                }

                var start = PickBlockGroup(step, request, out _);
                for (var r = 0; r < copies; r++)
                {
                    calls.Add(CallAsync(step, request, current, start, r, cancellationToken));
                }
            }

            await Task.WhenAll(calls).ConfigureAwait(false);
        }
    }

    private async Task CallAsync(CallStep step, NodeRequest request, RequestContext current, int groupStart, int replica, CancellationToken cancellationToken)
    {
        var downstreams = Volatile.Read(ref _downstreams) ?? throw new RpcException(new Status(StatusCode.Unavailable, $"{Name} is not connected to its downstream services yet."));
        var target = step.Target;
        var block = -1;
        Node.NodeClient client;
        switch (step.Route?.Strategy)
        {
            case RoutingStrategies.Blocks:
                if (groupStart < 0)
                {
                    groupStart = PickBlockGroup(step, request, out block);
                }

                client = replica >= 0 || step.ToPrimary
                    ? downstreams.Instance(target, (groupStart + Math.Max(0, replica)) % target.Instances)
                    : downstreams.Replicas(target, groupStart, step.Route.Replication, _configuration.ReplicaSelector ?? step.Route.ReplicaSelector);
                break;
            case RoutingStrategies.ConsistentHash:
                client = downstreams.Instance(target, step.Route.PartitionOwners![request.Workflow][request.Partition]);
                break;
            case RoutingStrategies.RoundRobin:
                client = downstreams.Service(target, RoundRobinPolicy);
                break;
            default:
                client = downstreams.Service(target, ReplicaSelectorNames.Random);
                break;
        }

        var connection = default(SubtaskLease);
        if (Service.ConnectionPool >= 0)
        {
            connection = await Acquire(Service.ConnectionPool, current, cancellationToken).ConfigureAwait(false);
        }

        try
        {
            var callee = new NodeRequest
            {
                Workflow = request.Workflow,
                Body = _topology.Plans.IdOf(step.Body),
                Partition = request.Partition,
                Block = block,
                RequestId = request.RequestId,
            };

            // The RPC timeout; Cicero's client interceptor shortens it to the request's remaining budget.
            using var call = client.ExecuteAsync(callee, deadline: TimeProvider.System.GetUtcNow().UtcDateTime + _topology.RpcTimeout, cancellationToken: cancellationToken);
            await call.ResponseAsync.ConfigureAwait(false);
        }
        catch (RpcException ex) when (ex.Trailers.Get(CiceroMetadataKeys.DropReason) is null && ex.Trailers.Count > 0)
        {
            // The call failed (unreachable, timed out): fail this handler with its status. grpc-dotnet's server would
            // merge an escaping exception's trailers into this call's, sending the callee's cicero-result-bin to our
            // caller beside our own; a drop (with its reason) is Cicero's to re-raise as downstream_dropped.
            throw new RpcException(ex.Status);
        }
        finally
        {
            connection.Dispose();
        }
    }

    private async ValueTask<SubtaskLease> Acquire(int resource, RequestContext current, CancellationToken cancellationToken)
    {
        var lease = await Resources[resource].AcquireAsync(current, 1, 0, cancellationToken).ConfigureAwait(false);
        return lease.IsAcquired
            ? lease
            : throw new RequestDroppedException(lease.RejectionReason == DropReason.None ? DropReason.QueueFull : lease.RejectionReason, $"{Name}: {Service.Resources[resource].Name}");
    }

    private int PickBlockGroup(CallStep step, NodeRequest request, out int block)
    {
        var route = step.Route!;
        block = NextRandom(route.BlocksPerPartition);
        return route.BlockGroupStarts![request.Workflow][(request.Partition * route.BlocksPerPartition) + block];
    }
}
