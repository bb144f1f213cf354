// SPDX-License-Identifier: Apache-2.0

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
        Interlocked.Increment(ref _served);
        var body = _topology.Plans[request.Body];
        Exception? failure;
        if (Service.ThreadPool < 0)
        {
            failure = await RunAsync(body, request, current, context.CancellationToken).ConfigureAwait(false);
        }
        else
        {
            // A blocking server: the thread is held for the whole handler, downstream waits included.
            var (thread, refused) = await AcquireAsync(Service.ThreadPool, current, context.CancellationToken).ConfigureAwait(false);
            using (thread)
            {
                failure = refused ?? await RunAsync(body, request, current, context.CancellationToken).ConfigureAwait(false);
            }
        }

        // Thrown once, here, for Cicero's interceptor to turn into this call's status: a plan step's failure travels
        // up the plan as a value, because under overload most calls fail and each await would rethrow it again.
        return failure is null ? new NodeReply { RequestId = request.RequestId } : throw failure;
    }

    /// <summary>Runs a plan body; the first failure ends it.</summary>
    /// <returns>Null, or why a step failed: a <see cref="RequestDroppedException"/> or a call's <see cref="RpcException"/>.</returns>
    private async Task<Exception?> RunAsync(PlanStep[] body, NodeRequest request, RequestContext current, CancellationToken cancellationToken)
    {
        foreach (var step in body)
        {
            Exception? failure;
            switch (step)
            {
                case UseStep use:
                    {
                        var (lease, refused) = await AcquireAsync(use.Resource, current, cancellationToken).ConfigureAwait(false);
                        using (lease)
                        {
                            if (refused is null)
                            {
                                await Task.Delay(Sample(use.ServiceTime), TimeProvider.System, cancellationToken).ConfigureAwait(false);
                            }
                        }

                        failure = refused;
                        break;
                    }

                case CallStep call:
                    failure = await CallAllAsync(call, request, current, cancellationToken).ConfigureAwait(false);
                    break;
                case ParallelStep parallel:
                    using (ParallelCalls.Begin())
                    {
                        failure = FirstFailure(await Task.WhenAll(parallel.Branches.Select(b => RunAsync(b, request, current, cancellationToken))).ConfigureAwait(false));
                    }

                    break;
                default:
                    failure = null;
                    break;
            }

            if (failure is not null)
            {
                return failure;
            }
        }

        return null;
    }

    private async Task<Exception?> CallAllAsync(CallStep step, NodeRequest request, RequestContext current, CancellationToken cancellationToken)
    {
        var copies = step.ToAllReplicas ? step.Route!.Replication : 1;
        if (step.Count * copies == 1)
        {
            return await CallAsync(step, request, current, groupStart: -1, replica: -1, cancellationToken).ConfigureAwait(false);
        }

        var calls = new List<Task<Exception?>>(step.Count * copies);
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

            return FirstFailure(await Task.WhenAll(calls).ConfigureAwait(false));
        }
    }

    private async Task<Exception?> CallAsync(CallStep step, NodeRequest request, RequestContext current, int groupStart, int replica, CancellationToken cancellationToken)
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
            (connection, var refused) = await AcquireAsync(Service.ConnectionPool, current, cancellationToken).ConfigureAwait(false);
            if (refused is not null)
            {
                return refused;
            }
        }

        using (connection)
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
            var response = call.ResponseAsync;
            await ((Task)response).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            if (response.IsCompletedSuccessfully)
            {
                return null;
            }

            if (response.Exception?.InnerException is not RpcException ex)
            {
                // Not a call status (cancelled locally): let it end the handler as it would have.
                await response.ConfigureAwait(false);
                return null;
            }

            // A drop keeps its reason, for Cicero to re-raise as this service's downstream_dropped. Any other failure
            // (unreachable, timed out) fails this handler with its status, leaving the callee's trailers behind:
            // grpc-dotnet's server would merge them into this call's, sending the callee's cicero-result-bin to our
            // caller beside our own.
            return ex.Trailers.Get(CiceroMetadataKeys.DropReason) is not null || ex.Trailers.Count == 0 ? ex : new RpcException(ex.Status);
        }
    }

    private static Exception? FirstFailure(Exception?[] failures)
    {
        foreach (var failure in failures)
        {
            if (failure is not null)
            {
                return failure;
            }
        }

        return null;
    }

    /// <summary>Takes a permit, or says why the resource refused one (queue full, deadline passed).</summary>
    private async ValueTask<(SubtaskLease Lease, RequestDroppedException? Refused)> AcquireAsync(int resource, RequestContext current, CancellationToken cancellationToken)
    {
        var lease = await Resources[resource].AcquireAsync(current, 1, 0, cancellationToken).ConfigureAwait(false);
        return lease.IsAcquired
            ? (lease, null)
            : (lease, new RequestDroppedException(lease.RejectionReason == DropReason.None ? DropReason.QueueFull : lease.RejectionReason, $"{Name}: {Service.Resources[resource].Name}"));
    }

    private int PickBlockGroup(CallStep step, NodeRequest request, out int block)
    {
        var route = step.Route!;
        block = NextRandom(route.BlocksPerPartition);
        return route.BlockGroupStarts![request.Workflow][(request.Partition * route.BlocksPerPartition) + block];
    }
}
