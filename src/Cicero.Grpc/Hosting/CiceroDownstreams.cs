// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Client;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.LoadBalancing;
using Cicero.Policies.Registration;
using Cicero.Runtime;

namespace Cicero.Grpc.Hosting;

/// <summary>
/// The channels to the downstream services configured with <c>AddDownstream</c>, each balanced by its policy and
/// intercepted by <see cref="CiceroClientInterceptor"/>. Thread-safe; a singleton.
/// </summary>
public sealed class CiceroDownstreams : IDisposable
{
    private readonly Dictionary<string, (RpcChannel Channel, CallInvoker Invoker)> _services = new(StringComparer.Ordinal);

    /// <summary>Creates the channels.</summary>
    /// <param name="options">The options.</param>
    /// <param name="runtime">This process's runtime.</param>
    /// <param name="instance">This process's identity.</param>
    /// <param name="catalog">Where load-balancing policies are found by name.</param>
    public CiceroDownstreams(CiceroGrpcOptions options, CiceroRuntime runtime, CiceroInstance instance, PolicyCatalog catalog)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(runtime);
        ArgumentNullException.ThrowIfNull(instance);
        ArgumentNullException.ThrowIfNull(catalog);
        foreach (var downstream in options.Downstreams)
        {
            var channelOptions = new RpcChannelOptions { LoadBalancingPolicy = downstream.LoadBalancingPolicy, TimeProvider = runtime.TimeProvider };
            foreach (var selector in catalog.ReplicaSelectorNames)
            {
                channelOptions.LoadBalancerFactories.Add(new ReplicaSelectorLoadBalancerFactory(catalog.GetReplicaSelector(selector)));
            }

            var channel = RpcChannel.ForAddresses(downstream.Addresses.Select(a => new Uri(a)), channelOptions);
            var invoker = channel.CreateCallInvoker().Intercept(new CiceroClientInterceptor(runtime, downstream.Name, () => instance.Id));
            _services[downstream.Name] = (channel, invoker);
        }
    }

    /// <summary>Gets the names of the downstream services.</summary>
    public IReadOnlyCollection<string> Names => _services.Keys;

    /// <summary>Gets the call invoker of a downstream service; pass it to a client.</summary>
    /// <param name="service">The service's name.</param>
    /// <returns>The invoker.</returns>
    /// <exception cref="KeyNotFoundException">No downstream service has that name.</exception>
    public CallInvoker GetCallInvoker(string service) => Get(service).Invoker;

    /// <summary>Gets the channel of a downstream service (its addresses and load balancer).</summary>
    /// <param name="service">The service's name.</param>
    /// <returns>The channel.</returns>
    public RpcChannel GetChannel(string service) => Get(service).Channel;

    /// <inheritdoc />
    public void Dispose()
    {
        foreach (var (channel, _) in _services.Values)
        {
            channel.Dispose();
        }
    }

    private (RpcChannel Channel, CallInvoker Invoker) Get(string service) =>
        _services.TryGetValue(service, out var entry)
            ? entry
            : throw new KeyNotFoundException($"No downstream service is named '{service}'; configured: {string.Join(", ", _services.Keys)}.");
}
