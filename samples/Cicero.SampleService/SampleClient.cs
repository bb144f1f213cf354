// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Client;
using Cicero.Grpc.Protocol;
using Cicero.SampleService.Protos;

namespace Cicero.SampleService;

/// <summary>An external client: calls the catalog or the storefront through an <see cref="RpcChannel"/>.</summary>
public static class SampleClient
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(5);

    /// <summary>Makes calls one after another and summarises them.</summary>
    /// <param name="address">The service, e.g. <c>http://127.0.0.1:5080</c>.</param>
    /// <param name="calls">How many calls.</param>
    /// <param name="storefront">Whether to call <c>Storefront/GetPage</c> (three items each) rather than <c>Catalog/GetItem</c>.</param>
    /// <param name="tenant">The tenant, sent in the <c>x-tenant</c> header the services classify by.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>The summary.</returns>
    public static async Task<CallSummary> RunAsync(Uri address, int calls, bool storefront, string tenant, CancellationToken cancellationToken)
    {
        var summary = new CallSummary();

        // snippet: client
        using var channel = RpcChannel.ForAddress(address);
        var invoker = channel.CreateCallInvoker();
        var headers = new Metadata().Add("x-tenant", tenant);
        // end snippet
        for (var i = 0; i < calls; i++)
        {
            var options = new CallOptions(headers, TimeProvider.System.GetUtcNow() + Deadline, cancellationToken);
            var id = $"sku-{i % 10}";
            if (storefront)
            {
                await CallAsync(invoker.AsyncUnaryCall(SampleApi.GetPage, options, new GetPageRequest { ItemIds = { id, "sku-a", "sku-b" } }), summary);
            }
            else
            {
                await CallAsync(invoker.AsyncUnaryCall(SampleApi.GetItem, options, new GetItemRequest { Id = id }), summary);
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
