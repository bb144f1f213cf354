// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.Grpc.RateExchange;
using Cicero.Policies.RateLimiting;
using Cicero.SampleService;
using Cicero.SampleService.Services;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

// The command line (catalog, storefront, call, self-test) is in SampleCommands.cs; the catalog's start-up is below.
return await SampleCommands.Create().Parse(args).InvokeAsync();

/// <summary>The catalog: a `dotnet new grpc` service; the lines marked "Cicero" adopt Cicero.</summary>
public partial class Program
{
    /// <summary>Builds the catalog service.</summary>
    /// <param name="settings">Port, trust and database settings.</param>
    /// <returns>The application, not started.</returns>
    public static WebApplication BuildCatalog(ServerSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var builder = WebApplication.CreateBuilder();
        HostSetup.Configure(builder, settings);

        // snippet: catalog-program
        builder.Services.AddGrpc();
        builder.Services.AddGrpcHealthChecks()
            .AddCheck("self", () => HealthCheckResult.Healthy());              // grpc.health.v1: SERVING while it runs
        builder.Services.AddCicero(o =>                                         // Cicero
            {
                o.ServiceName = "catalog";
                o.IsEntryPoint = !settings.Internal;                            // behind the storefront: trust its context
                o.Classifier = WorkflowClassifiers.ByHeader("x-tenant");        // external calls: the tenant header
                o.RateExchange.SharedToken = settings.RateExchangeToken;
            })
            .AddResource(CatalogService.Database, settings.DatabaseCapacity, settings.DatabaseScheduler) // Cicero
            .UseRateLimitPolicy(RateLimitPolicies.BottleneckFairness);                                  // Cicero

        var app = builder.Build();
        app.MapGrpcService<CatalogService>();
        app.MapGrpcHealthChecksService();
        app.MapCiceroRateExchange();                                            // Cicero
        // end snippet
        return app;
    }
}
