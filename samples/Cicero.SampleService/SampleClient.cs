// SPDX-License-Identifier: Apache-2.0

using Cicero.SampleService.Protos;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Grpc.Net.Client.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.SampleService;

/// <summary>
/// An external client, a process without Cicero's server side: calls the catalog or the storefront over a
/// <see cref="GrpcChannel"/> that balances over the given instances with Cicero's c3 policy.
/// </summary>
public static class SampleClient
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(5);

    /// <summary>Makes calls one after another and summarises them.</summary>
    /// <param name="addresses">The service's instances, e.g. <c>http://127.0.0.1:5080</c>.</param>
    /// <param name="calls">How many calls.</param>
    /// <param name="storefront">Whether to call <c>Storefront/GetPage</c> (three items each) rather than <c>Catalog/GetItem</c>.</param>
    /// <param name="tenant">The tenant, sent in the <c>x-tenant</c> header the services classify by.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The summary.</returns>
    public static async Task<CallSummary> RunAsync(IReadOnlyList<Uri> addresses, int calls, bool storefront, string tenant, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(addresses);
        var summary = new CallSummary();

        // snippet: client-channel
        await using var services = new ServiceCollection()
            .AddCiceroLoadBalancing()                                           // c3 and Cicero's other policies
            .AddSingleton<ResolverFactory>(new StaticResolverFactory(_ => addresses.Select(a => new BalancerAddress(a.Host, a.Port))))
            .BuildServiceProvider();
        using var channel = GrpcChannel.ForAddress("static:///sample", new GrpcChannelOptions
        {
            ServiceProvider = services,
            Credentials = ChannelCredentials.Insecure,
            ServiceConfig = new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig("c3") } },
        });
        var headers = new Metadata { { "x-tenant", tenant } };
        // end snippet

        var catalog = new Catalog.CatalogClient(channel);
        var storefrontClient = new Storefront.StorefrontClient(channel);
        for (var i = 0; i < calls; i++)
        {
            var options = new CallOptions(headers, DateTime.UtcNow + Deadline, cancellationToken);
            var id = $"sku-{i % 10}";
            if (storefront)
            {
                await CallAsync(storefrontClient.GetPageAsync(new GetPageRequest { ItemIds = { id, "sku-a", "sku-b" } }, options), summary);
            }
            else
            {
                await CallAsync(catalog.GetItemAsync(new GetItemRequest { Id = id }, options), summary);
            }
        }

        return summary;
    }

    private static async Task CallAsync<TResponse>(AsyncUnaryCall<TResponse> call, CallSummary summary)
    {
        var start = TimeProvider.System.GetTimestamp();
        using (call)
        {
            try
            {
                await call;
                summary.Add(StatusCode.OK, call.GetTrailers(), null, TimeProvider.System.GetElapsedTime(start));
            }
            catch (RpcException e)
            {
                summary.Add(e.StatusCode, e.Trailers, e.Status.Detail, TimeProvider.System.GetElapsedTime(start));
            }
        }
    }
}
