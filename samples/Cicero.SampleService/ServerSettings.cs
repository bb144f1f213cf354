// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Cicero.SampleService;

/// <summary>What the command line sets on a service of the sample.</summary>
public sealed record ServerSettings
{
    /// <summary>Gets where the service listens; port 0 picks a free one.</summary>
    public string Urls { get; init; } = "http://127.0.0.1:5080";

    /// <summary>Gets a value indicating whether only services inside the mesh call this one (<c>IsEntryPoint = false</c>).</summary>
    public bool Internal { get; init; }

    /// <summary>Gets the token that protects the rate-exchange endpoint and that this process presents to its downstreams.</summary>
    public string? RateExchangeToken { get; init; }

    /// <summary>Gets the catalog's database connections.</summary>
    public int DatabaseCapacity { get; init; } = 4;

    /// <summary>Gets the scheduler that orders waiters for a database connection.</summary>
    public string DatabaseScheduler { get; init; } = SubtaskSchedulerNames.EarliestDeadlineFirst;

    /// <summary>Gets the catalog instances the storefront calls.</summary>
    public IReadOnlyList<string> CatalogAddresses { get; init; } = ["http://127.0.0.1:5080"];

    /// <summary>Gets a value indicating whether to log only warnings and errors.</summary>
    public bool Quiet { get; init; }

    /// <summary>Listens on <see cref="Urls"/> with cleartext HTTP/2 (prior knowledge), as gRPC clients expect.</summary>
    /// <param name="builder">The application's builder.</param>
    public void ConfigureHost(WebApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);

        // snippet: kestrel
        builder.WebHost.UseUrls(Urls);
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.ConfigureEndpointDefaults(listen => listen.Protocols = HttpProtocols.Http2));
        // end snippet

        // Start-up and shutdown lines, but not four lines per request.
        builder.Logging.AddFilter("Microsoft.AspNetCore", LogLevel.Warning);
        if (Quiet)
        {
            builder.Logging.SetMinimumLevel(LogLevel.Warning);
        }
    }
}
