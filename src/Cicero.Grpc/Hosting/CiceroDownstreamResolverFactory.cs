// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Grpc.Net.Client.Balancer;

namespace Cicero.Grpc.Hosting;

/// <summary>
/// Resolves <c>cicero:///service</c> to the addresses configured for that downstream with <c>AddDownstream</c>, so that
/// a channel and the rate-exchange loop see the same instances. Other schemes (<c>dns:///</c>, <c>static:///</c>) work
/// as grpc-dotnet defines them.
/// </summary>
internal sealed class CiceroDownstreamResolverFactory(CiceroGrpcOptions options) : ResolverFactory
{
    public const string Scheme = "cicero";

    public override string Name => Scheme;

    public override Resolver Create(ResolverOptions options1)
    {
        ArgumentNullException.ThrowIfNull(options1);
        var name = options1.Address.AbsolutePath.Trim('/');
        var downstream = options.Downstreams.FirstOrDefault(d => string.Equals(d.Name, name, StringComparison.Ordinal))
            ?? throw new InvalidOperationException(
                $"The address '{options1.Address}' names no downstream service; configured with AddDownstream: {string.Join(", ", options.Downstreams.Select(d => d.Name))}.");
        var addresses = downstream.Addresses.Select(a => new Uri(a)).Select(u => new BalancerAddress(u.Host, u.Port)).ToArray();
        return new StaticResolverFactory(_ => addresses).Create(options1);
    }
}
