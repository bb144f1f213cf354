// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Runtime;
using Cicero.SampleService.Protos;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Grpc.Net.Client.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.SampleService;

/// <summary>
/// The storefront's catalog channel built by hand, for code that creates its own <see cref="GrpcChannel"/> rather than
/// using <c>AddGrpcClient&lt;T&gt;().AddCiceroDownstream(...)</c> (<c>storefront --manual-channel</c>).
/// </summary>
public static class CatalogChannel
{
    // snippet: manual-channel
    /// <summary>Creates the channel to the catalog's instances, balanced by c3; register it as a singleton.</summary>
    /// <param name="services">The service's container, in which <c>AddCicero</c> registered the c3 policy and the cicero:/// resolver.</param>
    /// <returns>The channel.</returns>
    public static GrpcChannel Create(IServiceProvider services) =>
        GrpcChannel.ForAddress("cicero:///catalog", new GrpcChannelOptions
        {
            ServiceProvider = services,                                         // finds the policy and the resolver
            Credentials = ChannelCredentials.Insecure,                          // cleartext HTTP/2 inside the mesh
            ServiceConfig = new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig("c3") } },
        });

    /// <summary>Creates the catalog client over that channel, through Cicero's client interceptor.</summary>
    /// <param name="services">The service's container.</param>
    /// <returns>The client.</returns>
    public static Catalog.CatalogClient CreateClient(IServiceProvider services)
    {
        var runtime = services.GetRequiredService<CiceroRuntime>();
        var instance = services.GetRequiredService<CiceroInstance>();
        var interceptor = new CiceroClientInterceptor(runtime, "catalog", () => instance.Id);
        return new Catalog.CatalogClient(services.GetRequiredService<GrpcChannel>().Intercept(interceptor));
    }
    // end snippet
}
