// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.RateExchange;

/// <summary>Maps Cicero's rate-exchange service.</summary>
public static class RateExchangeEndpointRouteBuilderExtensions
{
    /// <summary>
    /// Maps the generated <c>cicero.v1.RateExchange</c> service (<c>Protos/rate_exchange.proto</c>) with
    /// <c>MapGrpcService</c>, through which upstream callers pull this instance's admission rates. It requires
    /// <see cref="RateExchangeOptions.AuthorizationPolicy"/> when one is configured and checks
    /// <see cref="RateExchangeOptions.SharedToken"/> when one is set; further conventions (e.g.
    /// <c>RequireAuthorization()</c>, <c>RequireHost()</c>) apply to the result. Cicero's server interceptor lets the
    /// service through: rate exchange is control-plane traffic and is never admitted or dropped.
    /// </summary>
    /// <param name="endpoints">The route builder.</param>
    /// <returns>The service's convention builder.</returns>
    /// <exception cref="InvalidOperationException"><c>AddCicero</c> was not called.</exception>
    public static GrpcServiceEndpointConventionBuilder MapCiceroRateExchange(this IEndpointRouteBuilder endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        _ = endpoints.ServiceProvider.GetService<RateExchangeService>()
            ?? throw new InvalidOperationException("MapCiceroRateExchange needs services.AddCicero(...) first.");
        var options = endpoints.ServiceProvider.GetRequiredService<CiceroGrpcOptions>();
        var builder = endpoints.MapGrpcService<RateExchangeService>();
        if (options.RateExchange.AuthorizationPolicy is { Length: > 0 } policy)
        {
            builder.RequireAuthorization(policy);
        }

        return builder;
    }
}
