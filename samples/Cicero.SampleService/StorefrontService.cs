// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Runtime;
using Cicero.SampleService.Protos;
using Polly;
using Polly.Retry;
using Polly.Timeout;

namespace Cicero.SampleService;

/// <summary>The storefront's handler: fetches a page's items from the catalog, all at once.</summary>
public sealed class StorefrontService(CiceroDownstreams downstreams, CiceroRuntime runtime)
{
    // snippet: downstream-client
    private readonly CatalogClient _catalog = new(downstreams.GetCallInvoker("catalog"));
    // end snippet

    // snippet: polly
    private readonly ResiliencePipeline _catalogCalls = new ResiliencePipelineBuilder { TimeProvider = runtime.TimeProvider }
        .AddCiceroDeadlineTimeout()                                // all attempts together stay within the request's budget
        .AddRetry(new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<RpcException>(e => e.StatusCode == StatusCode.Unavailable),
            MaxRetryAttempts = 2,
            Delay = TimeSpan.FromMilliseconds(20),
        })
        .Build();
    // end snippet

    /// <summary>Serves <c>GetPage</c>.</summary>
    /// <param name="request">The request.</param>
    /// <param name="context">The call.</param>
    /// <returns>The page.</returns>
    public async Task<Page> GetPageAsync(GetPageRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);

        // snippet: parallel-calls
        Item[] items;
        try
        {
            using (ParallelCalls.Begin())
            {
                // One fan-out: the callees' progress joins as a parallel step (mean service time, summed load).
                items = await Task.WhenAll(request.ItemIds.Select(id =>
                    _catalogCalls.ExecuteAsync(async token => await _catalog.GetItemAsync(id, token), context.CancellationToken).AsTask()));
            }
        }
        catch (TimeoutRejectedException)
        {
            throw new RpcException(new RpcStatus(StatusCode.DeadlineExceeded, "The request's deadline passed while fetching items."));
        }
        // end snippet

        var page = new Page();
        page.Items.Add(items);
        return page;
    }
}
