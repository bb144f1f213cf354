// SPDX-License-Identifier: Apache-2.0

using System.Net;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Tests.Protos;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>A real Kestrel server on 127.0.0.1 with an ephemeral port (or a given one), speaking cleartext HTTP/2.</summary>
internal sealed class TestHost : IAsyncDisposable
{
    private readonly WebApplication _app;
    private int _disposed;

    private TestHost(WebApplication app, Uri address)
    {
        _app = app;
        Address = address;
    }

    /// <summary>Gets the server's address, <c>http://127.0.0.1:port/</c>.</summary>
    public Uri Address { get; }

    public IServiceProvider Services => _app.Services;

    public static async Task<TestHost> StartAsync(Action<IServiceCollection> services, Action<WebApplication> map, int port = 0)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, port, o => o.Protocols = HttpProtocols.Http2));
        services(builder.Services);
        var app = builder.Build();
        try
        {
            map(app);
            await app.StartAsync();
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return new TestHost(app, new Uri(address));
    }

    /// <summary>
    /// Starts a Cicero service that serves <c>cicero.test.Probe</c> with <paramref name="handlers"/>; its rate-exchange
    /// loop is off unless <paramref name="configure"/> turns it on.
    /// </summary>
    public static Task<TestHost> StartProbeAsync(
        Action<CiceroGrpcOptions> configure,
        ProbeHandlers? handlers = null,
        Action<ICiceroBuilder>? cicero = null,
        Action<WebApplication>? map = null,
        Action<IServiceCollection>? services = null,
        int port = 0) => StartAsync(
        s =>
        {
            s.AddSingleton(handlers ?? new ProbeHandlers());
            var builder = s.AddCicero(o =>
            {
                o.ServiceName = "probe";
                o.RateExchange.RunControlLoop = false;
                configure(o);
            });
            cicero?.Invoke(builder);
            services?.Invoke(s);
        },
        app =>
        {
            app.MapGrpcService<ProbeService>();
            map?.Invoke(app);
        },
        port);

    /// <summary>A new channel to this server; the caller disposes it.</summary>
    public GrpcChannel CreateChannel() => GrpcChannel.ForAddress(Address);

    /// <summary>A Probe client on <paramref name="channel"/>.</summary>
    public static Probe.ProbeClient Client(GrpcChannel channel) => new(channel);

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
