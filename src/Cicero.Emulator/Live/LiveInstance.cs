// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Workloads;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Server;
using Cicero.Policies.Registration;
using Cicero.ReplicaSelection;
using Cicero.Resources;
using Cicero.Runtime;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Emulator.Live;

/// <summary>
/// One emulated instance as a real gRPC server on loopback: Cicero.Grpc's interceptors admit and propagate context,
/// its resources are Core semaphores under the configuration's scheduler, and its plan steps run with real delays.
/// </summary>
internal sealed class LiveInstance : IAsyncDisposable
{
    private readonly LiveTopology _topology;
    private readonly ConfigurationSpec _configuration;
    private readonly Lock _randomLock = new();
    private readonly Random _random;
    private readonly ConcurrentDictionary<(int Service, int Start), ReplicaGroup> _groups = new();
    private readonly List<RpcChannel> _channels = [];
    private WebApplication? _app;
    private CallInvoker[][] _invokers = [];
    private int[] _roundRobin = [];

    public LiveInstance(LiveTopology topology, ServiceDef service, int index, ConfigurationSpec configuration, int seed)
    {
        _topology = topology;
        Service = service;
        Index = index;
        _configuration = configuration;
        _random = new Random(seed);
    }

    public ServiceDef Service { get; }

    public int Index { get; }

    public Uri Address { get; private set; } = null!;

    public CiceroRuntime Runtime { get; private set; } = null!;

    public ResourceSemaphore[] Resources { get; private set; } = [];

    /// <summary>Starts the server: on an ephemeral loopback port, or on the port of its configured address.</summary>
    /// <param name="address">The address other processes reach it at, or <see langword="null"/> for a loopback port.</param>
    /// <param name="listenHost">The interface to listen on when an address is given.</param>
    public async Task StartAsync(Uri? address, string listenHost)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        var ip = address is null ? IPAddress.Loopback : IPAddress.Parse(listenHost);
        builder.WebHost.ConfigureKestrel(k => k.Listen(ip, address?.Port ?? 0, o => o.Protocols = HttpProtocols.Http2));
        var isEntry = _topology.Compiled.Workflows.Any(w => w.Entry == Service);
        var cicero = builder.Services.AddCicero(o =>
        {
            o.ServiceName = Service.Name;
            o.InstanceId = address is null ? null : InstanceIds.FromAddress(address);
            o.IsEntryPoint = isEntry;
            o.Classifier = WorkflowClassifiers.ByHeader(LiveTopology.WorkflowHeader);
            o.DeadlineSelector = (_, workflow) => _topology.DeadlineOf(workflow);
            o.RateLimitPolicy = _configuration.RateControl ? _configuration.RateLimitPolicy : "pass-through";
            o.DropPolicy = _configuration.DropPolicy;
            o.Core.RateAdaptation.Quantile = _configuration.Quantile;
            o.Core.RateAdaptation.Interval = TimeSpan.FromMilliseconds(_configuration.ControlIntervalMs);
            o.Core.RateAdaptation.QueryTimeout = TimeSpan.FromMilliseconds(_configuration.ControlIntervalMs * 0.8);
            o.Core.Admission.QueueLimit = _configuration.AdmissionQueueLimit;
            o.RateExchange.RunControlLoop = false;
            foreach (var resource in Service.Resources)
            {
                o.Resources.Add(new Grpc.Configuration.CiceroResourceOptions
                {
                    Name = resource.Name!,
                    Capacity = resource.Capacity,
                    MaxQueueLength = resource.MaxQueueLength,
                    Scheduler = _configuration.Scheduler,
                    DropExpiredWaiters = _configuration.DropExpiredSubtasks,
                });
            }
        });
        builder.Services.AddSingleton(_topology.Catalog);
        _app = builder.Build();
        _app.MapCiceroRateExchange();
        _app.MapGrpcUnary(NodeRequest.Execute, HandleAsync);
        await _app.StartAsync().ConfigureAwait(false);

        var listening = _app.Urls.FirstOrDefault() ?? throw new InvalidOperationException($"{Name} has no address.");
        Address = address ?? new Uri(listening.Replace("[::]", "127.0.0.1", StringComparison.Ordinal));
        Runtime = _app.Services.GetRequiredService<CiceroRuntime>();
        Resources = [.. Service.Resources.Select(r => Runtime.GetResource(r.Name!))];
    }

    public string Name => Service.Name + "-" + Index.ToString(CultureInfo.InvariantCulture);

    /// <summary>Opens channels to every instance of the services this one calls, and starts rate adaptation.</summary>
    /// <param name="addresses">Every instance's address, by service index then instance index.</param>
    public void Connect(IReadOnlyList<Uri[]> addresses)
    {
        _invokers = new CallInvoker[addresses.Count][];
        _roundRobin = new int[addresses.Count];
        foreach (var callee in Service.Callees)
        {
            var targets = addresses[callee.Index];
            _invokers[callee.Index] = new CallInvoker[targets.Length];
            for (var i = 0; i < targets.Length; i++)
            {
                var channel = RpcChannel.ForAddress(targets[i] ?? throw new InvalidOperationException(
                    $"{Name} calls {callee.Name}-{i}, which is neither hosted here nor given an address."));
                _channels.Add(channel);
                _invokers[callee.Index][i] = channel.CreateCallInvoker()
                    .Intercept(new CiceroClientInterceptor(Runtime, callee.Name, InstanceIds.FromAddress(Address)));
            }

            Runtime.RateAdaptation.SetDownstreamInstances(callee.Name, targets.Select(InstanceIds.FromAddress));
        }

        Runtime.Options.RateAdaptation.ProcessId = InstanceIds.FromAddress(Address);
        if (_configuration.RateControl)
        {
            Runtime.RateAdaptation.Start();
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        foreach (var group in _groups.Values)
        {
            group.Dispose();
        }

        foreach (var channel in _channels)
        {
            channel.Dispose();
        }

        if (_app is not null)
        {
            await _app.StopAsync().ConfigureAwait(false);
            await _app.DisposeAsync().ConfigureAwait(false);
        }
    }

    private async Task<NodeRequest> HandleAsync(NodeRequest request, ServerCallContext context)
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

        return request;
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
        var target = step.Target;
        var block = -1;
        ReplicaGroup? group = null;
        ReplicaState? chosen = null;
        int instance;
        switch (step.Route?.Strategy)
        {
            case RoutingStrategies.Blocks:
                if (groupStart < 0)
                {
                    groupStart = PickBlockGroup(step, request, out block);
                }

                if (replica >= 0 || step.ToPrimary)
                {
                    instance = (groupStart + Math.Max(0, replica)) % target.Instances;
                    break;
                }

                group = GroupOf(step, groupStart);
                RefreshDown(group, target.Index);
                var pick = await group.PickAsync(cancellationToken).ConfigureAwait(false);
                if (!pick.Succeeded)
                {
                    throw new RpcException(new RpcStatus(StatusCode.Unavailable, $"{Outcome.NoReplica}: {pick.Failure}"));
                }

                chosen = pick.Replica!;
                instance = int.Parse(chosen.Id, CultureInfo.InvariantCulture);
                break;
            case RoutingStrategies.ConsistentHash:
                instance = step.Route.PartitionOwners![request.Workflow][request.Partition];
                break;
            case RoutingStrategies.RoundRobin:
                instance = (int)((uint)Interlocked.Increment(ref _roundRobin[target.Index]) % (uint)target.Instances);
                break;
            default:
                instance = NextRandom(target.Instances);
                break;
        }

        var connection = default(SubtaskLease);
        if (Service.ConnectionPool >= 0)
        {
            connection = await Acquire(Service.ConnectionPool, current, cancellationToken).ConfigureAwait(false);
        }

        var started = TimeProvider.System.GetTimestamp();
        try
        {
            var options = new CallOptions(Deadline: TimeProvider.System.GetUtcNow() + _topology.RpcTimeout, CancellationToken: cancellationToken);
            var call = _invokers[target.Index][instance].AsyncUnaryCall(
                NodeRequest.Execute, options, request with { Body = _topology.Plans.IdOf(step.Body), Block = block });
            try
            {
                await call.ResponseAsync.ConfigureAwait(false);
            }
            finally
            {
                if (group is not null)
                {
                    Feedback(group, chosen!, call, TimeProvider.System.GetElapsedTime(started));
                    TrackReachability(target.Index, instance, call);
                }
            }
        }
        finally
        {
            connection.Dispose();
        }
    }

    /// <summary>
    /// A replica whose connection was refused is skipped for a back-off (250 ms, doubling to 5 s while it stays
    /// unreachable), then tried again by real calls, as Cicero.Grpc's balancer does; one that answers is reset.
    /// </summary>
    private void TrackReachability(int service, int instance, AsyncUnaryCall<NodeRequest> call)
    {
        var status = call.ResponseAsync.Status == TaskStatus.RanToCompletion ? StatusCode.OK : call.GetStatus().Code;
        var key = (service, instance);
        if (status != StatusCode.Unavailable)
        {
            _unreachable.TryRemove(key, out _);
            return;
        }

        var now = TimeProvider.System.GetTimestamp();
        _unreachable.AddOrUpdate(
            key,
            _ => (now + ToTimestamp(MinBackoff), MinBackoff),
            (_, previous) =>
            {
                var next = previous.Backoff * 2 > MaxBackoff ? MaxBackoff : previous.Backoff * 2;
                return (now + ToTimestamp(next), next);
            });
    }

    private void RefreshDown(ReplicaGroup group, int service)
    {
        var now = TimeProvider.System.GetTimestamp();
        foreach (var replica in group.Replicas)
        {
            var down = _unreachable.TryGetValue((service, int.Parse(replica.Id, CultureInfo.InvariantCulture)), out var state) && state.Until > now;
            if (replica.IsDown != down)
            {
                group.SetDown(replica.Id, down);
            }
        }
    }

    private static long ToTimestamp(TimeSpan span) => (long)(span.TotalSeconds * TimeProvider.System.TimestampFrequency);

    private static void Feedback(ReplicaGroup group, ReplicaState replica, AsyncUnaryCall<NodeRequest> call, TimeSpan responseTime)
    {
        Metadata? trailers = null;
        try
        {
            trailers = call.GetTrailers();
        }
        catch (InvalidOperationException)
        {
            // The call never ended with a status (e.g. cancelled before sending).
        }

        var failed = call.ResponseAsync.Status != TaskStatus.RanToCompletion;
        Span<byte> bytes = stackalloc byte[TrailerCodec.MaxLength];
        if (failed || trailers is null || !trailers.TryCopyValueBytes(Grpc.CiceroMetadataKeys.Result, bytes, out var length) ||
            !TrailerCodec.TryDecodeFeedback(bytes[..length], responseTime, failed: false, out var feedback))
        {
            feedback = new ReplicaFeedback(responseTime, 0, responseTime, Failed: failed);
        }

        group.Complete(replica, feedback);
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

    private ReplicaGroup GroupOf(CallStep step, int start) => _groups.GetOrAdd((step.Target.Index, start), key =>
    {
        var route = step.Route!;
        var selector = _topology.Catalog.GetReplicaSelector(route.ReplicaSelector).Create(TimeProvider.System.TimestampFrequency);
        var group = new ReplicaGroup(selector);
        group.SetReplicas(Enumerable.Range(0, route.Replication).Select(r => ((key.Start + r) % step.Target.Instances).ToString(CultureInfo.InvariantCulture)));
        return group;
    });

    private static readonly TimeSpan MinBackoff = TimeSpan.FromMilliseconds(250);
    private static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(5);
    private readonly System.Collections.Concurrent.ConcurrentDictionary<(int Service, int Instance), (long Until, TimeSpan Backoff)> _unreachable = new();
    private int _disposed;

    /// <summary>Gets or sets the service-time factor of an injected <c>slow</c> fault; 1 without one.</summary>
    public double FaultFactor { get; set; } = 1;

    /// <summary>Kills the instance: its server stops at once, aborting the calls it serves (an injected <c>kill</c>).</summary>
    public async Task KillAsync()
    {
        if (_app is not null)
        {
            await _app.StopAsync(new CancellationToken(canceled: true)).ConfigureAwait(false);
        }

        await DisposeAsync().ConfigureAwait(false);
    }

    private TimeSpan Sample(TimeDistribution distribution)
    {
        lock (_randomLock)
        {
            return TimeSpan.FromSeconds(distribution.SampleSeconds(_random) * FaultFactor);
        }
    }

    private int NextRandom(int exclusiveMax)
    {
        lock (_randomLock)
        {
            return _random.Next(exclusiveMax);
        }
    }
}
