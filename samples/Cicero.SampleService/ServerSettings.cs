// SPDX-License-Identifier: Apache-2.0

using System.Net;
using Cicero.Policies.Scheduling;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Cicero.SampleService;

/// <summary>What the command line sets on a service of the sample.</summary>
public sealed record ServerSettings
{
    /// <summary>Gets the port on 127.0.0.1 the service listens on; 0 picks a free one.</summary>
    public int Port { get; init; } = 5080;

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

    /// <summary>
    /// Gets a value indicating whether the storefront builds its catalog channel by hand (<c>GrpcChannel</c> with
    /// <c>CiceroClientInterceptor</c>) rather than with <c>AddGrpcClient</c>.
    /// </summary>
    public bool ManualChannel { get; init; }

    /// <summary>Gets a value indicating whether to log only warnings and errors.</summary>
    public bool Quiet { get; init; }

    /// <summary>Listens on 127.0.0.1 only, with cleartext HTTP/2 (prior knowledge), as gRPC clients expect without TLS.</summary>
    /// <param name="builder">The application's builder.</param>
    public void ConfigureHost(WebApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);

        // snippet: kestrel
        builder.WebHost.ConfigureKestrel(kestrel =>
            kestrel.Listen(IPAddress.Loopback, Port, listen => listen.Protocols = HttpProtocols.Http2));
        // end snippet

        // Start-up and shutdown lines, but not a few lines per call in and out.
        builder.Logging.AddFilter("Microsoft.AspNetCore", LogLevel.Warning);
        builder.Logging.AddFilter("System.Net.Http.HttpClient", LogLevel.Warning);
        builder.Logging.AddFilter("Grpc", LogLevel.Warning);
        if (Quiet)
        {
            builder.Logging.SetMinimumLevel(LogLevel.Warning);
        }
    }
}
