// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Globalization;
using Cicero.Emulator.Live.Protocol;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Grpc.Client;
using Cicero.Grpc.LoadBalancing;
using Cicero.Runtime;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Emulator.Live;

/// <summary>
/// One instance's clients of the services it calls. Every set of instances a route can address gets one
/// <see cref="GrpcChannel"/>, made on first use and reused for every later call: a single instance (a partition's owner
/// on the ring, a block's primary, each copy of a replicated write) with grpc-dotnet's <c>pick_first</c>; the copies of
/// a block with the route's replica selector as a Cicero load-balancing policy (<c>c3</c>, <c>round-robin</c>, ...),
/// blocks with the same copies sharing one; every instance of the service with <c>round_robin</c> or Cicero's
/// <c>random</c>. grpc-dotnet picks the replica, connects, and reconnects to a refused one with back-off; Cicero's
/// balancer ranks the replicas with the feedback <see cref="CiceroClientInterceptor"/> (on every channel, one per
/// called service) hands it from each call's trailers. The emulator keeps no replica state of its own.
/// </summary>
internal sealed class LiveDownstreams : IDisposable
{
    private readonly IReadOnlyList<Uri?[]> _addresses;
    private readonly ServiceProvider _services;
    private readonly ConcurrentDictionary<string, BalancerAddress[]> _targets = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, Lazy<(GrpcChannel Channel, Node.NodeClient Client)>> _channels = new(StringComparer.Ordinal);
    private readonly CiceroClientInterceptor?[] _interceptors;
    private int _disposed;

    /// <summary>Creates the clients of one instance; channels are made when first used.</summary>
    /// <param name="topology">The run.</param>
    /// <param name="caller">The calling instance's service (C3's n is its instance count).</param>
    /// <param name="addresses">Every instance's address, by service index then instance index; null where unknown.</param>
    /// <param name="runtime">The calling instance's runtime, for the client interceptor.</param>
    /// <param name="callerId">The calling instance's id.</param>
    /// <param name="seed">Seeds the random and P2C selectors.</param>
    public LiveDownstreams(LiveTopology topology, ServiceDef caller, IReadOnlyList<Uri?[]> addresses, CiceroRuntime runtime, string callerId, int seed)
    {
        _addresses = addresses;
        _interceptors = new CiceroClientInterceptor?[topology.Compiled.Services.Length];
        foreach (var callee in caller.Callees)
        {
            _interceptors[callee.Index] = new CiceroClientInterceptor(runtime, callee.Name, callerId);
        }

        // The channels' container: one Cicero policy per selector of the run's catalog, made as the simulator makes
        // its selectors, and grpc-dotnet's static resolver over the targets named below.
        var random = new Random(seed);
        var gate = new Lock();
        int NextSeed()
        {
            lock (gate)
            {
                return random.Next();
            }
        }

        var services = new ServiceCollection();
        foreach (var name in topology.Catalog.ReplicaSelectorNames)
        {
            var selector = ScenarioReplicaSelectors.Factory(topology.Catalog, topology.Configuration, name, caller.Instances, NextSeed);
            services.AddSingleton<LoadBalancerFactory>(new ReplicaSelectorBalancerFactory(selector));
        }

        services.AddSingleton<ResolverFactory>(new StaticResolverFactory(address => _targets[LiveChannels.NameOf(address)]));
        _services = services.BuildServiceProvider();
    }

    /// <summary>Gets the client of one instance.</summary>
    public Node.NodeClient Instance(ServiceDef target, int instance) => Get(target, [instance], policy: null);

    /// <summary>Gets the client of a block's copies: <paramref name="replication"/> instances from <paramref name="start"/>, balanced by a selector.</summary>
    public Node.NodeClient Replicas(ServiceDef target, int start, int replication, string selector)
    {
        var instances = new int[replication];
        for (var r = 0; r < replication; r++)
        {
            instances[r] = (start + r) % target.Instances;
        }

        Array.Sort(instances);
        return Get(target, instances, selector);
    }

    /// <summary>Gets the client of every instance of a service, balanced by a policy.</summary>
    public Node.NodeClient Service(ServiceDef target, string policy) => Get(target, [.. Enumerable.Range(0, target.Instances)], policy);

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        foreach (var channel in _channels.Values)
        {
            if (channel.IsValueCreated)
            {
                channel.Value.Channel.Dispose();
            }
        }

        _services.Dispose();
    }

    private Node.NodeClient Get(ServiceDef target, int[] instances, string? policy)
    {
        var name = target.Name + "." + string.Join('-', instances.Select(i => i.ToString(CultureInfo.InvariantCulture))) + "." + (policy ?? "pick_first");
        if (_channels.TryGetValue(name, out var existing))
        {
            return existing.Value.Client;
        }

        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        return _channels.GetOrAdd(name, key => new Lazy<(GrpcChannel, Node.NodeClient)>(() =>
        {
            _targets[key] = [.. instances.Select(i => LiveChannels.ToBalancerAddress(_addresses[target.Index][i] ?? throw new InvalidOperationException(
                $"{target.Name}-{i} is called but is neither hosted here nor given an address.")))];
            var channel = LiveChannels.Create(key, _services, policy);
            var interceptor = _interceptors[target.Index] ?? throw new InvalidOperationException($"{target.Name} is not a callee of this service.");
            return (channel, new Node.NodeClient(channel.Intercept(interceptor)));
        })).Value.Client;
    }
}
