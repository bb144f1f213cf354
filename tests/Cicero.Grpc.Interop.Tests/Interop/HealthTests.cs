// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Grpc.Core;
using Grpc.Health.V1;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Cicero.Grpc.Interop.Tests.Interop;

/// <summary>grpc-dotnet's health service next to Cicero: it answers, and Cicero's admission never touches it.</summary>
public sealed class HealthTests
{
    [Fact]
    public async Task Health_service_next_to_Cicero_answers_serving_while_admission_refuses_everything_else()
    {
        await using var server = await TestServer.StartAsync(
            services =>
            {
                services.AddSingleton<ProbeState>();
                services.AddCicero(o =>
                {
                    o.ServiceName = "probe";
                    o.Classifier = WorkflowClassifiers.Fixed("everyone");
                    o.RateExchange.RunControlLoop = false;

                    // Admission shut: a rate of 0 and no queue; only the bucket's starting token gets through.
                    o.Core.Admission.InitialRate = 0;
                    o.Core.Admission.QueueLimit = 0;
                });
                services.AddGrpcHealthChecks().AddCheck("self", () => HealthCheckResult.Healthy());
            },
            app =>
            {
                app.MapGrpcService<ProbeService>();
                app.MapGrpcHealthChecksService();
            });
        using var channel = GrpcChannel.ForAddress(server.Address);

        var probe = new Probe.ProbeClient(channel);
        var refused = 0;
        for (var i = 0; i < 3; i++)
        {
            try
            {
                await probe.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(10));
            }
            catch (RpcException ex) when (ex.Trailers.GetValue(CiceroMetadataKeys.DropReason) is not null)
            {
                // At a rate of 0 the drop policy refuses a call with a deadline as infeasible before the limiter would.
                refused++;
            }
        }

        Assert.True(refused >= 2, $"Cicero refused only {refused} of 3 probe calls");

        var health = new Health.HealthClient(channel);
        for (var i = 0; i < 20; i++)
        {
            using var call = health.CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(10));
            var response = await call.ResponseAsync;
            Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, response.Status);

            // Cicero let the call through untouched: no admission, no trailer.
            Assert.Null(call.GetTrailers().Get(CiceroMetadataKeys.Result));
        }
    }
}
