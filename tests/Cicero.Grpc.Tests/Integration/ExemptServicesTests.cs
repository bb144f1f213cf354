// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Grpc.Classification;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Runtime;
using Grpc.Core;
using Grpc.Health.V1;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using RateExchangeProtocol = Cicero.Grpc.RateExchange.Protocol;

namespace Cicero.Grpc.Tests.Integration;

/// <summary>
/// Control-plane services pass the global interceptor untouched: a server that rejects every application call still
/// answers health checks and rate exchange, without Cicero's trailers.
/// </summary>
public sealed class ExemptServicesTests
{
    [Fact]
    public async Task Health_and_rate_exchange_are_served_while_every_application_call_is_rejected()
    {
        await using var host = await TestHost.StartProbeAsync(
            o =>
            {
                o.Classifier = WorkflowClassifiers.Fixed("everyone");
                o.QueueForAdmission = false;
            },
            map: app =>
            {
                app.MapGrpcHealthChecksService();
                app.MapCiceroRateExchange();
            },
            services: s => s.AddGrpcHealthChecks().AddCheck("self", () => HealthCheckResult.Healthy()));
        host.Services.GetRequiredService<CiceroRuntime>().Admission.Configure("everyone", new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        using var channel = host.CreateChannel();
        var probe = TestHost.Client(channel);
        await probe.WorkAsync(ProbeHandlers.Of("uses the only token"));
        var rejected = await Assert.ThrowsAsync<RpcException>(async () => await probe.WorkAsync(ProbeHandlers.Of("x")));
        Assert.Equal(StatusCode.ResourceExhausted, rejected.StatusCode);

        var health = new Health.HealthClient(channel);
        var rates = new RateExchangeProtocol.RateExchange.RateExchangeClient(channel);
        for (var i = 0; i < 5; i++)
        {
            var check = health.CheckAsync(new HealthCheckRequest());
            Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, (await check).Status);
            Assert.Null(check.GetTrailers().Get(CiceroMetadataKeys.Result));

            var exchange = rates.GetAdmissionRatesAsync(new RateExchangeProtocol.GetAdmissionRatesRequest { Caller = "http://127.0.0.1:9" });
            await exchange;
            Assert.Null(exchange.GetTrailers().Get(CiceroMetadataKeys.Result));
        }
    }
}
