// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Client;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Runtime;
using Grpc.Core;
using Grpc.Net.Client.Configuration;
using Grpc.Net.ClientFactory;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Adopts Cicero in clients registered with Grpc.Net.ClientFactory's <c>AddGrpcClient&lt;T&gt;()</c>.</summary>
public static class CiceroHttpClientBuilderExtensions
{
    /// <summary>
    /// Makes a gRPC client call a downstream service the Cicero way: <see cref="CiceroClientInterceptor"/> on its channel
    /// (context, deadline budget, amplification, progress, replica feedback) and, when the service was configured with
    /// <c>AddDownstream(name, addresses, policy)</c>, the address <c>cicero:///name</c> (those instances) balanced by
    /// that policy (<c>c3</c> by default). An address, service config or credentials set on the client are kept.
    /// </summary>
    /// <param name="builder">The builder <c>AddGrpcClient&lt;T&gt;()</c> returned.</param>
    /// <param name="downstreamService">The downstream service's name, as in <c>AddDownstream</c> and rate exchange.</param>
    /// <returns>The builder.</returns>
    public static IHttpClientBuilder AddCiceroDownstream(this IHttpClientBuilder builder, string downstreamService)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentException.ThrowIfNullOrWhiteSpace(downstreamService);
        builder.Services.AddOptions<GrpcClientFactoryOptions>(builder.Name).Configure<CiceroGrpcOptions>((client, options) =>
        {
            if (client.Address is null && Find(options, downstreamService) is not null)
            {
                client.Address = new Uri($"{CiceroDownstreamResolverFactory.Scheme}:///{downstreamService}");
            }
        });
        builder.ConfigureChannel((services, channel) =>
        {
            var options = services.GetRequiredService<CiceroGrpcOptions>();
            if (Find(options, downstreamService) is not { } downstream)
            {
                if (services.GetRequiredService<IOptionsMonitor<GrpcClientFactoryOptions>>().Get(builder.Name).Address is null)
                {
                    throw new InvalidOperationException(
                        $"The gRPC client '{builder.Name}' calls downstream service '{downstreamService}', which has no address: configure it with AddCicero(...).AddDownstream(\"{downstreamService}\", addresses) or give the client an address. Configured downstream services: {string.Join(", ", options.Downstreams.Select(d => d.Name))}.");
                }

                return;
            }

            channel.ServiceConfig ??= new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig(downstream.LoadBalancingPolicy) } };
            if (channel.Credentials is null)
            {
                var secure = downstream.Addresses.Any(a => a.StartsWith("https://", StringComparison.OrdinalIgnoreCase));
                channel.Credentials = secure ? ChannelCredentials.SecureSsl : ChannelCredentials.Insecure;
            }
        });
        builder.AddInterceptor(InterceptorScope.Channel, services =>
        {
            var instance = services.GetRequiredService<CiceroInstance>();
            return new CiceroClientInterceptor(services.GetRequiredService<CiceroRuntime>(), downstreamService, () => instance.Id);
        });
        return builder;
    }

    private static CiceroDownstreamOptions? Find(CiceroGrpcOptions options, string name) =>
        options.Downstreams.FirstOrDefault(d => string.Equals(d.Name, name, StringComparison.Ordinal));
}
