// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;
using Cicero.SampleService.Protos;

namespace Cicero.SampleService;

/// <summary>
/// The methods of <c>Protos/catalog.proto</c>. Grpc.Tools generates the message classes; these descriptors stand in for
/// the service stubs, which need the grpc-dotnet runtime this feed does not serve (docs/decisions/0005).
/// </summary>
public static class SampleApi
{
    // snippet: method
    /// <summary><c>cicero.samples.v1.Catalog/GetItem</c>.</summary>
    public static readonly Method<GetItemRequest, Item> GetItem = new(
        MethodType.Unary,
        "cicero.samples.v1.Catalog",
        "GetItem",
        Marshallers.ForProtobuf(GetItemRequest.Parser),
        Marshallers.ForProtobuf(Item.Parser));
    // end snippet

    /// <summary><c>cicero.samples.v1.Storefront/GetPage</c>.</summary>
    public static readonly Method<GetPageRequest, Page> GetPage = new(
        MethodType.Unary,
        "cicero.samples.v1.Storefront",
        "GetPage",
        Marshallers.ForProtobuf(GetPageRequest.Parser),
        Marshallers.ForProtobuf(Page.Parser));
}
