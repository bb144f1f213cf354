// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Server;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.RateExchange;

/// <summary>Maps Cicero's rate-exchange endpoint.</summary>
public static class RateExchangeEndpointRouteBuilderExtensions
{
    /// <summary>
    /// Maps <c>/cicero.v1.RateExchange/GetAdmissionRates</c>, through which upstream callers pull this instance's
    /// admission rates. It requires <see cref="RateExchangeOptions.AuthorizationPolicy"/> when one is configured and
    /// checks <see cref="RateExchangeOptions.SharedToken"/> when one is set; add further conventions on the result.
    /// Server interceptors do not apply: rate exchange is control-plane traffic and must not be admitted or dropped.
    /// </summary>
    /// <param name="endpoints">The route builder.</param>
    /// <returns>The endpoint's convention builder.</returns>
    /// <exception cref="InvalidOperationException"><c>AddCicero</c> was not called.</exception>
    public static IEndpointConventionBuilder MapCiceroRateExchange(this IEndpointRouteBuilder endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        var service = endpoints.ServiceProvider.GetService<RateExchangeService>()
            ?? throw new InvalidOperationException("MapCiceroRateExchange needs services.AddCicero(...) first.");
        var options = endpoints.ServiceProvider.GetRequiredService<CiceroGrpcOptions>();
        var builder = endpoints.MapGrpcUnaryWithoutInterceptors(RateExchangeMethods.GetAdmissionRates, service.GetAdmissionRates);
        if (options.RateExchange.AuthorizationPolicy is { Length: > 0 } policy)
        {
            builder.RequireAuthorization(policy);
        }

        return builder;
    }
}
