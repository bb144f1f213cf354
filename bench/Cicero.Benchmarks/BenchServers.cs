// SPDX-License-Identifier: Apache-2.0

using System.Net;
using Cicero.Grpc.Classification;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Benchmarks;

/// <summary>
/// Starts the benchmark servers: grpc-dotnet (<c>Grpc.AspNetCore</c>) on Kestrel, cleartext HTTP/2 only, on 127.0.0.1
/// with an ephemeral port, serving <see cref="EchoService"/> through <c>MapGrpcService</c>.
/// </summary>
internal static class BenchServers
{
    /// <summary>The workflow every Cicero server classifies its calls into and every Cicero client starts.</summary>
    public const string Workflow = "bench-tenant";

    /// <summary>The service name the Cicero server runs as, and the downstream name its clients use.</summary>
    public const string ServiceName = "bench-server";

    /// <summary>Starts one server.</summary>
    /// <param name="withCicero">
    /// <c>AddCicero</c> (its server interceptor on every call) with <c>IsEntryPoint = false</c>, so the context header is
    /// decoded and trusted; a fixed classifier; admission queueing at its default; no rate-exchange control loop.
    /// Otherwise plain <c>AddGrpc</c>.
    /// </param>
    /// <param name="settings">What the handler does.</param>
    /// <param name="withPassThrough">
    /// Without Cicero: <see cref="PassThroughInterceptor"/> as a global interceptor, registered as a singleton as
    /// <c>AddCicero</c> registers its own, so the server pays grpc-dotnet's interceptor pipeline and nothing else.
    /// </param>
    /// <returns>The application, to stop, and its address (<c>http://127.0.0.1:port</c>).</returns>
    public static async Task<(WebApplication App, Uri Address)> StartAsync(bool withCicero, EchoServerSettings settings, bool withPassThrough = false)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0, o => o.Protocols = HttpProtocols.Http2));
        builder.Services.AddSingleton(settings);
        if (withCicero)
        {
            builder.Services.AddCicero(o =>
            {
                o.ServiceName = ServiceName;
                o.IsEntryPoint = false;
                o.Classifier = WorkflowClassifiers.Fixed(Workflow);
                o.RateExchange.RunControlLoop = false;
            });
        }
        else if (withPassThrough)
        {
            builder.Services.AddSingleton<PassThroughInterceptor>();
            builder.Services.AddGrpc(o => o.Interceptors.Add<PassThroughInterceptor>());
        }
        else
        {
            builder.Services.AddGrpc();
        }

        var app = builder.Build();
        app.MapGrpcService<EchoService>();
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return (app, new Uri(address.Replace("[::]", "127.0.0.1", StringComparison.Ordinal)));
    }

    /// <summary>Stops and disposes a server.</summary>
    public static async Task StopAsync(WebApplication? app)
    {
        if (app is not null)
        {
            await app.StopAsync();
            await app.DisposeAsync();
        }
    }
}
