// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.SampleService.Protos;
using Cicero.SampleService.Services;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Cicero.SampleService;

/// <summary>The storefront: an entry point that calls the catalog.</summary>
public static class StorefrontServer
{
    /// <summary>Builds the storefront service.</summary>
    /// <param name="settings">Port, token, the catalog's addresses and how to build the catalog's channel.</param>
    /// <returns>The application, not started.</returns>
    public static WebApplication Build(ServerSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var builder = WebApplication.CreateBuilder();
        HostSetup.Configure(builder, settings);

        // snippet: storefront-program
        builder.Services.AddGrpc();
        builder.Services.AddGrpcHealthChecks()
            .AddCheck("self", () => HealthCheckResult.Healthy());              // grpc.health.v1: SERVING while it runs
        builder.Services.AddCicero(o =>
            {
                o.ServiceName = "storefront";                                   // an entry point: IsEntryPoint stays true
                o.Classifier = WorkflowClassifiers.ByHeader("x-tenant");
                o.DefaultDeadline = TimeSpan.FromSeconds(1);                    // for callers that send no grpc-timeout
                o.RateExchange.SharedToken = settings.RateExchangeToken;        // presented to the catalog
            })
            .AddDownstream("catalog", settings.CatalogAddresses);               // its instances, balanced by c3
        if (!settings.ManualChannel)
        {
            builder.Services.AddGrpcClient<Catalog.CatalogClient>().AddCiceroDownstream("catalog");
        }
        else
        {
            builder.Services.AddSingleton(CatalogChannel.Create);               // the same, by hand: CatalogChannel.cs
            builder.Services.AddSingleton(CatalogChannel.CreateClient);
        }

        builder.Services.AddSingleton<StorefrontService>();                     // one instance: one Polly pipeline

        var app = builder.Build();
        app.MapGrpcService<StorefrontService>();
        app.MapGrpcHealthChecksService();
        // end snippet
        return app;
    }
}
