// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Client;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Runtime;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Grpc.Net.Client.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>
/// A client-only process's channel over several servers, the grpc-dotnet way: a container with the balancer factories
/// and a <see cref="StaticResolverFactory"/>, the address <c>static:///probe</c>, the policy chosen by
/// <see cref="LoadBalancingConfig"/>, and <see cref="CiceroClientInterceptor"/> on the channel so the servers' trailers
/// reach the balancer.
/// </summary>
public sealed class BalancedChannel : IDisposable
{
    private readonly ServiceProvider _provider;

    private BalancedChannel(ServiceProvider provider, GrpcChannel channel, CiceroRuntime runtime)
    {
        _provider = provider;
        Channel = channel;
        Runtime = runtime;
        Client = new Probe.ProbeClient(channel.Intercept(new CiceroClientInterceptor(runtime, "probe", "interop-client")));
    }

    /// <summary>Gets the channel.</summary>
    public GrpcChannel Channel { get; }

    /// <summary>Gets the client process's Cicero runtime.</summary>
    public CiceroRuntime Runtime { get; }

    /// <summary>Gets the probe client over the intercepted channel.</summary>
    public Probe.ProbeClient Client { get; }

    /// <summary>Creates the channel.</summary>
    /// <param name="servers">The servers' addresses.</param>
    /// <param name="policy">The load-balancing policy's name.</param>
    /// <param name="registerPolicies">Registers the policy's factory (e.g. <c>AddCiceroLoadBalancing()</c>).</param>
    /// <returns>The channel.</returns>
    public static BalancedChannel Create(IEnumerable<Uri> servers, string policy, Action<IServiceCollection> registerPolicies)
    {
        ArgumentNullException.ThrowIfNull(registerPolicies);
        var addresses = servers.Select(s => new BalancerAddress(s.Host, s.Port)).ToArray();
        var services = new ServiceCollection();
        registerPolicies(services);
        services.AddSingleton<ResolverFactory>(new StaticResolverFactory(_ => addresses));
        var provider = services.BuildServiceProvider();
        var channel = GrpcChannel.ForAddress("static:///probe", new GrpcChannelOptions
        {
            ServiceProvider = provider,
            Credentials = ChannelCredentials.Insecure,
            ServiceConfig = new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig(policy) } },
        });
        return new BalancedChannel(provider, channel, new CiceroRuntime());
    }

    /// <summary>Runs <paramref name="calls"/> echo calls, <paramref name="concurrency"/> at a time, each with a generous deadline.</summary>
    /// <param name="calls">The number of calls; a multiple of <paramref name="concurrency"/>.</param>
    /// <param name="concurrency">How many run at once.</param>
    /// <returns>The port that answered each call.</returns>
    public async Task<IReadOnlyList<int>> EchoAsync(int calls, int concurrency)
    {
        var ports = new int[calls];
        var workers = Enumerable.Range(0, concurrency).Select(async worker =>
        {
            for (var i = worker; i < calls; i += concurrency)
            {
                var reply = await Client.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(30));
                ports[i] = reply.Port;
            }
        });
        await Task.WhenAll(workers);
        return ports;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        Channel.Dispose();
        Runtime.Dispose();
        _provider.Dispose();
    }
}
