// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;
using Cicero.Grpc.RateExchange.Protocol;

namespace Cicero.Grpc.RateExchange;

/// <summary>The rate-exchange service's methods (<c>Protos/rate_exchange.proto</c>).</summary>
internal static class RateExchangeMethods
{
    public const string ServiceName = "cicero.v1.RateExchange";

    public static readonly Method<GetAdmissionRatesRequest, GetAdmissionRatesResponse> GetAdmissionRates = new(
        MethodType.Unary,
        ServiceName,
        "GetAdmissionRates",
        Marshallers.ForProtobuf(GetAdmissionRatesRequest.Parser),
        Marshallers.ForProtobuf(GetAdmissionRatesResponse.Parser));
}
