// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Services;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>
/// Probe servers running Cicero, one per <see cref="ProbeState"/>. Server i (from 0) reports the background activity
/// (i + 1) / 4 in Cicero's trailer, so a feedback record tells which server it came from.
/// </summary>
public sealed class ProbeReplicas : IAsyncDisposable
{
    private readonly TestServer[] _servers;

    private ProbeReplicas(TestServer[] servers, ProbeState[] states)
    {
        _servers = servers;
        States = states;
    }

    /// <summary>Gets the servers' states, in start order.</summary>
    public IReadOnlyList<ProbeState> States { get; }

    /// <summary>Gets the servers' addresses, in start order.</summary>
    public IReadOnlyList<Uri> Addresses => [.. _servers.Select(s => s.Address)];

    /// <summary>Starts one server per state.</summary>
    /// <param name="states">The servers' states (extra delay, counters).</param>
    /// <returns>The servers.</returns>
    public static async Task<ProbeReplicas> StartAsync(params ProbeState[] states)
    {
        ArgumentNullException.ThrowIfNull(states);
        var servers = new TestServer[states.Length];
        for (var i = 0; i < states.Length; i++)
        {
            var state = states[i];
            var activity = BackgroundActivityOf(i);
            servers[i] = await TestServer.StartAsync(
                services =>
                {
                    services.AddSingleton(state);
                    services.AddCicero(o => { o.ServiceName = "probe"; o.BackgroundActivity = () => activity; });
                },
                app => app.MapGrpcService<ProbeService>());
        }

        return new ProbeReplicas(servers, states);
    }

    /// <summary>Gets the background activity server <paramref name="index"/> reports.</summary>
    /// <param name="index">The server's index.</param>
    /// <returns>(index + 1) / 4: exact in single precision.</returns>
    public static double BackgroundActivityOf(int index) => (index + 1) / 4.0;

    /// <summary>Gets the index of the server listening on <paramref name="port"/>.</summary>
    /// <param name="port">The port.</param>
    /// <returns>The index.</returns>
    public int IndexOf(int port) => Array.FindIndex(_servers, s => s.Port == port) is var i and >= 0
        ? i
        : throw new ArgumentException($"No replica listens on port {port}.", nameof(port));

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        foreach (var server in _servers)
        {
            await server.DisposeAsync();
        }
    }
}
