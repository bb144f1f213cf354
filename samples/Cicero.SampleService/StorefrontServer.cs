// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Server;
using Cicero.Policies.ReplicaSelection;

namespace Cicero.SampleService;

/// <summary>The storefront: an entry point that calls the catalog.</summary>
public static class StorefrontServer
{
    /// <summary>Builds the storefront service.</summary>
    /// <param name="settings">Address, token and the catalog's addresses.</param>
    /// <returns>The application, not started.</returns>
    /// <exception cref="Microsoft.Extensions.Options.OptionsValidationException">The Cicero options are invalid.</exception>
    public static WebApplication Build(ServerSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var builder = WebApplication.CreateBuilder();
        settings.ConfigureHost(builder);

        // snippet: storefront-services
        builder.Services.AddCicero(o =>
            {
                o.ServiceName = "storefront";                                   // an entry point: IsEntryPoint stays true
                o.Classifier = WorkflowClassifiers.ByHeader("x-tenant");
                o.DefaultDeadline = TimeSpan.FromSeconds(1);                    // for callers that send no grpc-timeout
                o.RateExchange.SharedToken = settings.RateExchangeToken;        // presented to the catalog
            })
            // Balanced over the catalog's instances; not by c3, the default, until its idle-time issue is fixed
            // (docs/getting-started.md, "Known issues").
            .AddDownstream("catalog", settings.CatalogAddresses, ReplicaSelectorNames.LeastOutstanding);
        builder.Services.AddSingleton<StorefrontService>();
        // end snippet

        var app = builder.Build();
        app.MapGrpcUnary(SampleApi.GetPage, app.Services.GetRequiredService<StorefrontService>().GetPageAsync);
        return app;
    }
}
