// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Cicero.Runtime;
using Cicero.SampleService.Protos;
using Grpc.Core;
using Polly;
using Polly.Retry;
using Polly.Timeout;

namespace Cicero.SampleService.Services;

// snippet: storefront-service
/// <summary>The storefront: fetches a page's items from the catalog, all at once.</summary>
/// <param name="catalog">The catalog's client (<c>AddGrpcClient&lt;Catalog.CatalogClient&gt;().AddCiceroDownstream("catalog")</c>).</param>
/// <param name="runtime">Cicero's runtime, registered by <c>AddCicero</c>.</param>
public sealed class StorefrontService(Catalog.CatalogClient catalog, CiceroRuntime runtime) : Storefront.StorefrontBase
{
    private readonly ResiliencePipeline _catalogCalls = new ResiliencePipelineBuilder { TimeProvider = runtime.TimeProvider }
        .AddCiceroDeadlineTimeout()                                // all attempts together stay within the request's budget
        .AddRetry(new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<RpcException>(e => e.StatusCode == StatusCode.Unavailable),
            MaxRetryAttempts = 2,
            Delay = TimeSpan.FromMilliseconds(20),
        })
        .Build();

    /// <inheritdoc />
    public override async Task<Page> GetPage(GetPageRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);

        Item[] items;
        try
        {
            using (ParallelCalls.Begin())
            {
                // One fan-out: the callees' progress joins as a parallel step (mean service time, summed load).
                items = await Task.WhenAll(request.ItemIds.Select(id => _catalogCalls.ExecuteAsync(
                    async token => await catalog.GetItemAsync(new GetItemRequest { Id = id }, cancellationToken: token),
                    context.CancellationToken).AsTask()));
            }
        }
        catch (TimeoutRejectedException)
        {
            throw new RpcException(new Status(StatusCode.DeadlineExceeded, "The request's deadline passed while fetching items."));
        }

        var page = new Page();
        page.Items.Add(items);
        return page;
    }
}
// end snippet
