// SPDX-License-Identifier: Apache-2.0

using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;

namespace Cicero.SampleService;

/// <summary>A started service and the address it listens on; disposing it stops it.</summary>
public sealed class RunningService : IAsyncDisposable
{
    private RunningService(WebApplication app, Uri address)
    {
        App = app;
        Address = address;
    }

    /// <summary>Gets the application.</summary>
    public WebApplication App { get; }

    /// <summary>Gets the address it listens on (the port the system chose, if 0 was asked for).</summary>
    public Uri Address { get; }

    /// <summary>Starts an application.</summary>
    /// <param name="app">The application; disposed if it fails to start.</param>
    /// <param name="cancellationToken">Cancels the start.</param>
    /// <returns>The running service.</returns>
    public static async Task<RunningService> StartAsync(WebApplication app, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(app);
        try
        {
            await app.StartAsync(cancellationToken);
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault()
            ?? throw new InvalidOperationException("The server reports no listening address.");
        return new RunningService(app, new Uri(address));
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await App.StopAsync();
        await App.DisposeAsync();
    }
}
