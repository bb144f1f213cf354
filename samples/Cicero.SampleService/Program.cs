// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Server;
using Cicero.Policies.RateLimiting;
using Cicero.SampleService;

// The command line (catalog, storefront, call, self-test) is in SampleCommands.cs; the catalog's start-up is below.
return await SampleCommands.Create().Parse(args).InvokeAsync();

/// <summary>The catalog: an ordinary ASP.NET Core gRPC service; the lines marked "Cicero" adopt Cicero.</summary>
public partial class Program
{
    /// <summary>Builds the catalog service.</summary>
    /// <param name="settings">Address, trust and database settings.</param>
    /// <returns>The application, not started.</returns>
    /// <exception cref="Microsoft.Extensions.Options.OptionsValidationException">The Cicero options are invalid.</exception>
    public static WebApplication BuildCatalog(ServerSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var builder = WebApplication.CreateBuilder();
        settings.ConfigureHost(builder);

        // snippet: catalog-services
        builder.Services.AddCicero(o =>                                         // Cicero
            {
                o.ServiceName = "catalog";
                o.IsEntryPoint = !settings.Internal;                            // behind the storefront: trust its context
                o.Classifier = WorkflowClassifiers.ByHeader("x-tenant");        // external calls: the tenant header
                o.RateExchange.SharedToken = settings.RateExchangeToken;
            })
            .AddResource(CatalogService.Database, settings.DatabaseCapacity, settings.DatabaseScheduler) // Cicero
            .UseRateLimitPolicy(RateLimitPolicies.BottleneckFairness);                                  // Cicero
        builder.Services.AddSingleton<CatalogService>();
        // end snippet

        var app = builder.Build();

        // snippet: catalog-endpoints
        app.MapGrpcUnary(SampleApi.GetItem, app.Services.GetRequiredService<CatalogService>().GetItemAsync);
        app.MapCiceroRateExchange();                                            // Cicero
        // end snippet
        return app;
    }
}
