// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Server;
using Cicero.Runtime;
using Cicero.SampleService.Protos;

namespace Cicero.SampleService;

/// <summary>The catalog's handler: looks an item up in a database that takes a few queries at a time.</summary>
public sealed class CatalogService(CiceroRuntime runtime)
{
    /// <summary>The resource's name, as registered with <c>AddResource</c>.</summary>
    public const string Database = "db";

    private static readonly TimeSpan QueryTime = TimeSpan.FromMilliseconds(5);

    /// <summary>Serves <c>GetItem</c>.</summary>
    /// <param name="request">The request.</param>
    /// <param name="context">The call.</param>
    /// <returns>The item.</returns>
    public async Task<Item> GetItemAsync(GetItemRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);

        // snippet: resource
        // Cicero's server interceptor has admitted the request and made its context ambient.
        var current = CiceroContext.Current!;

        // Wait for a database connection; the resource's scheduler (EDF here) orders the waiters.
        using var connection = await runtime.GetResource(Database).AcquireAsync(current, cancellationToken: context.CancellationToken);
        if (!connection.IsAcquired)
        {
            // The wait queue is full: answer RESOURCE_EXHAUSTED with the reason in the cicero-drop-reason trailer.
            CiceroRuntime.DropRequest(connection.RejectionReason, "the database queue is full");
        }

        await Task.Delay(QueryTime, runtime.TimeProvider, context.CancellationToken); // the query
        // end snippet

        return new Item { Id = request.Id, Name = $"Item {request.Id}", PriceCents = 100 + (request.Id.Length * 25) };
    }
}
