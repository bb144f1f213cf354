// SPDX-License-Identifier: Apache-2.0

using System.Net;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Cicero.SampleService;

/// <summary>What the sample's services share in their host: where Kestrel listens, and how much they log.</summary>
public static class HostSetup
{
    /// <summary>Listens on 127.0.0.1 only, with cleartext HTTP/2 (prior knowledge), as gRPC clients expect without TLS.</summary>
    /// <param name="builder">The application's builder.</param>
    /// <param name="settings">The port and whether to log quietly.</param>
    public static void Configure(WebApplicationBuilder builder, ServerSettings settings)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(settings);

        // snippet: kestrel
        builder.WebHost.ConfigureKestrel(kestrel =>
            kestrel.Listen(IPAddress.Loopback, settings.Port, listen => listen.Protocols = HttpProtocols.Http2));
        // end snippet

        // Start-up and shutdown lines, but not a few lines per call in and out.
        builder.Logging.AddFilter("Microsoft.AspNetCore", LogLevel.Warning);
        builder.Logging.AddFilter("System.Net.Http.HttpClient", LogLevel.Warning);
        builder.Logging.AddFilter("Grpc", LogLevel.Warning);
        if (settings.Quiet)
        {
            builder.Logging.SetMinimumLevel(LogLevel.Warning);
        }
    }
}
