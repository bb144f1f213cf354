// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Grpc.Net.Client.Configuration;

namespace Cicero.Emulator.Live;

/// <summary>
/// The live runner's <see cref="GrpcChannel"/>s: a <c>static:///name</c> target resolved by the container's
/// <see cref="StaticResolverFactory"/>, balanced by a named policy from the same container (one of Cicero's
/// replica-selector policies, or grpc-dotnet's <c>round_robin</c> and <c>pick_first</c>), cleartext HTTP/2.
/// </summary>
internal static class LiveChannels
{
    /// <summary>
    /// How soon a refused instance is tried again, doubling up to <see cref="MaxReconnectBackoff"/>: the replica-client
    /// engine's back-off, so the simulator skips a dead instance as long as grpc-dotnet does here. grpc-dotnet's
    /// defaults (1 s up to 120 s) would leave a restarted instance unused for minutes after a long outage.
    /// </summary>
    public static readonly TimeSpan InitialReconnectBackoff = ReplicaGroupOptions.DefaultInitialBackoff;

    /// <summary>The longest wait between reconnection attempts to a refused instance.</summary>
    public static readonly TimeSpan MaxReconnectBackoff = ReplicaGroupOptions.DefaultMaxBackoff;

    /// <summary>The scheme of grpc-dotnet's <see cref="StaticResolverFactory"/>.</summary>
    public const string Scheme = "static";

    /// <summary>Creates a channel to a named set of addresses.</summary>
    /// <param name="name">The target's name, as the container's static resolver knows it.</param>
    /// <param name="services">Holds the resolver and the balancer factories.</param>
    /// <param name="policy">The load-balancing policy's name; grpc-dotnet's default (<c>pick_first</c>) when <see langword="null"/>.</param>
    /// <returns>The channel.</returns>
    public static GrpcChannel Create(string name, IServiceProvider services, string? policy) =>
        GrpcChannel.ForAddress(new Uri($"{Scheme}:///{name}"), new GrpcChannelOptions
        {
            Credentials = ChannelCredentials.Insecure,
            ServiceProvider = services,
            ServiceConfig = policy is null ? null : new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig(policy) } },
            InitialReconnectBackoff = InitialReconnectBackoff,
            MaxReconnectBackoff = MaxReconnectBackoff,
        });

    /// <summary>The name a channel's address carries: the path of <c>static:///name</c>.</summary>
    /// <param name="address">The channel's address.</param>
    /// <returns>The name.</returns>
    public static string NameOf(Uri address) => address.AbsolutePath.Trim('/');

    /// <summary>The resolver's address of an instance.</summary>
    /// <param name="address">The instance's address.</param>
    /// <returns><c>host:port</c>.</returns>
    public static BalancerAddress ToBalancerAddress(Uri address) => new(address.Host, address.Port);
}
