// SPDX-License-Identifier: Apache-2.0

using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Interop.Tests.Hosting;

/// <summary>
/// A real ASP.NET Core gRPC server for a test: Kestrel on 127.0.0.1, HTTP/2 without TLS, on a free port (or a given
/// one, to restart an instance where it was).
/// </summary>
public sealed class TestServer : IAsyncDisposable
{
    private readonly WebApplication _app;
    private bool _stopped;

    private TestServer(WebApplication app, Uri address)
    {
        _app = app;
        Address = address;
    }

    /// <summary>Gets the server's address, <c>http://127.0.0.1:port</c>.</summary>
    public Uri Address { get; }

    /// <summary>Gets the server's port.</summary>
    public int Port => Address.Port;

    /// <summary>Gets the server's services.</summary>
    public IServiceProvider Services => _app.Services;

    /// <summary>Starts a server.</summary>
    /// <param name="configureServices">Registers the services (e.g. <c>AddCicero</c>, <c>AddGrpc</c>).</param>
    /// <param name="map">Maps the endpoints (e.g. <c>MapGrpcService&lt;T&gt;()</c>).</param>
    /// <param name="port">The port; 0 for a free one.</param>
    /// <returns>The started server.</returns>
    public static async Task<TestServer> StartAsync(Action<IServiceCollection> configureServices, Action<WebApplication> map, int port = 0)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.WebHost.ConfigureKestrel(o => o.Listen(IPAddress.Loopback, port, listen => listen.Protocols = HttpProtocols.Http2));
        configureServices(builder.Services);
        var app = builder.Build();
        map(app);
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return new TestServer(app, new Uri(address));
    }

    /// <summary>Stops the server (its port is free again) and releases it.</summary>
    /// <returns>A task that completes when the server is gone.</returns>
    public async ValueTask DisposeAsync()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        using (var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5)))
        {
            await _app.StopAsync(timeout.Token);
        }

        await _app.DisposeAsync();
    }
}
