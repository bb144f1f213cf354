// SPDX-License-Identifier: Apache-2.0

using System.Net.Http;
using Cicero.Grpc.LoadBalancing;

namespace Cicero.Grpc.Client;

/// <summary>
/// A client's connection to one service: one or more server addresses, an HTTP/2 connection pool and a load
/// balancer. Thread-safe; create one per downstream service and reuse it.
/// </summary>
/// <remarks>
/// Speaks the gRPC over HTTP/2 protocol on <see cref="HttpMessageInvoker"/>; <c>http://</c> addresses use cleartext
/// HTTP/2 with prior knowledge (decision 0005).
/// </remarks>
public sealed class RpcChannel : IDisposable
{
    private readonly bool _disposeHandler;
    private Uri[] _addresses;

    private RpcChannel(Uri[] addresses, RpcChannelOptions options)
    {
        Options = options;
        _addresses = addresses;
        var handler = options.HttpHandler ?? new SocketsHttpHandler
        {
            EnableMultipleHttp2Connections = true,
            PooledConnectionIdleTimeout = Timeout.InfiniteTimeSpan,
            KeepAlivePingDelay = TimeSpan.FromSeconds(60),
            KeepAlivePingTimeout = TimeSpan.FromSeconds(30),
            ConnectTimeout = TimeSpan.FromSeconds(5),
        };
        _disposeHandler = options.HttpHandler is null || options.DisposeHttpHandler;
        Http = new HttpMessageInvoker(handler, disposeHandler: _disposeHandler);
        LoadBalancer = CreateLoadBalancer(options, addresses);
    }

    /// <summary>Gets the options.</summary>
    public RpcChannelOptions Options { get; }

    /// <summary>Gets the servers.</summary>
    public IReadOnlyList<Uri> Addresses => Volatile.Read(ref _addresses);

    /// <summary>Gets the load balancer.</summary>
    public LoadBalancer LoadBalancer { get; }

    internal HttpMessageInvoker Http { get; }

    /// <summary>Creates a channel to one server.</summary>
    /// <param name="address">The server, e.g. <c>http://127.0.0.1:5000</c>.</param>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    /// <returns>The channel.</returns>
    public static RpcChannel ForAddress(Uri address, RpcChannelOptions? options = null) => ForAddresses([address], options);

    /// <summary>Creates a channel to one server.</summary>
    /// <param name="address">The server, e.g. <c>http://127.0.0.1:5000</c>.</param>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    /// <returns>The channel.</returns>
    public static RpcChannel ForAddress(string address, RpcChannelOptions? options = null) => ForAddresses([ParseAddress(address)], options);

    /// <summary>Creates a channel to the replicas of a service; the load-balancing policy chooses among them.</summary>
    /// <param name="addresses">The servers.</param>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    /// <returns>The channel.</returns>
    public static RpcChannel ForAddresses(IEnumerable<Uri> addresses, RpcChannelOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(addresses);
        return new RpcChannel(Validate(addresses), options ?? new RpcChannelOptions());
    }

    /// <summary>Replaces the servers, e.g. after service discovery changed.</summary>
    /// <param name="addresses">The servers.</param>
    public void UpdateAddresses(IEnumerable<Uri> addresses)
    {
        ArgumentNullException.ThrowIfNull(addresses);
        var next = Validate(addresses);
        Volatile.Write(ref _addresses, next);
        LoadBalancer.UpdateAddresses(next);
    }

    /// <summary>Creates the invoker that sends calls on this channel; wrap it with interceptors as needed.</summary>
    /// <returns>The invoker.</returns>
    public CallInvoker CreateCallInvoker() => new HttpCallInvoker(this);

    /// <inheritdoc />
    public void Dispose()
    {
        LoadBalancer.Dispose();
        Http.Dispose();
    }

    private static LoadBalancer CreateLoadBalancer(RpcChannelOptions options, Uri[] addresses)
    {
        var name = options.LoadBalancingPolicy;
        var context = new LoadBalancerContext(addresses, options.TimeProvider);
        foreach (var factory in options.LoadBalancerFactories)
        {
            if (string.Equals(factory.Name, name, StringComparison.OrdinalIgnoreCase))
            {
                return factory.Create(context);
            }
        }

        if (string.Equals(name, RoundRobinLoadBalancerFactory.PolicyName, StringComparison.OrdinalIgnoreCase))
        {
            return new RoundRobinLoadBalancerFactory().Create(context);
        }

        var known = string.Join(", ", options.LoadBalancerFactories.Select(f => f.Name).Append(RoundRobinLoadBalancerFactory.PolicyName));
        throw new InvalidOperationException($"No load-balancing policy is named '{name}'; known: {known}.");
    }

    private static Uri ParseAddress(string address)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(address);
        return Uri.TryCreate(address, UriKind.Absolute, out var uri)
            ? uri
            : throw new ArgumentException($"'{address}' is not an absolute address such as http://127.0.0.1:5000.", nameof(address));
    }

    private static Uri[] Validate(IEnumerable<Uri> addresses)
    {
        var list = addresses.ToArray();
        foreach (var address in list)
        {
            if (address is null || !address.IsAbsoluteUri || (address.Scheme != Uri.UriSchemeHttp && address.Scheme != Uri.UriSchemeHttps))
            {
                throw new ArgumentException($"'{address}' is not an absolute http or https address.", nameof(addresses));
            }
        }

        return list;
    }
}
