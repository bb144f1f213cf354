// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Client;
using Cicero.SampleService.Protos;

namespace Cicero.SampleService;

/// <summary>A typed client of the catalog, in place of the stub grpc-dotnet would generate.</summary>
/// <param name="invoker">The invoker, e.g. <c>CiceroDownstreams.GetCallInvoker("catalog")</c>.</param>
public sealed class CatalogClient(CallInvoker invoker)
{
    /// <summary>Gets an item.</summary>
    /// <param name="id">The item's id.</param>
    /// <param name="cancellationToken">Cancels the call.</param>
    /// <returns>The item; faults with <see cref="Grpc.Protocol.RpcException"/> when the call fails.</returns>
    public Task<Item> GetItemAsync(string id, CancellationToken cancellationToken = default) =>
        invoker.AsyncUnaryCall(SampleApi.GetItem, new CallOptions(CancellationToken: cancellationToken), new GetItemRequest { Id = id }).ResponseAsync;
}
