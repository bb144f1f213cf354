// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Runtime;
using Cicero.SampleService.Protos;
using Grpc.Core;

namespace Cicero.SampleService.Services;

// snippet: catalog-service
/// <summary>The catalog: looks an item up in a database that takes a few queries at a time.</summary>
/// <param name="runtime">Cicero's runtime, registered by <c>AddCicero</c>.</param>
public sealed class CatalogService(CiceroRuntime runtime) : Catalog.CatalogBase
{
    /// <summary>The resource's name, as registered with <c>AddResource</c>.</summary>
    public const string Database = "db";

    private static readonly TimeSpan QueryTime = TimeSpan.FromMilliseconds(5);

    /// <inheritdoc />
    public override async Task<Item> GetItem(GetItemRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);

        // Cicero's server interceptor has admitted the request and made its context ambient.
        var current = CiceroContext.Current!;

        // Wait for a database connection; the resource's scheduler (EDF here) orders the waiters.
        using var connection = await runtime.GetResource(Database).AcquireAsync(current, cancellationToken: context.CancellationToken);
        if (!connection.IsAcquired)
        {
            // The wait queue is full: answer RESOURCE_EXHAUSTED with the reason in the cicero-drop-reason trailer.
            throw new RequestDroppedException(connection.RejectionReason, "the database queue is full");
        }

        await Task.Delay(QueryTime, runtime.TimeProvider, context.CancellationToken); // the query
        return new Item { Id = request.Id, Name = $"Item {request.Id}", PriceCents = 100 + (request.Id.Length * 25) };
    }
}
// end snippet
