// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Services;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.StatusTable;

/// <summary>Starts the probe service under Cicero with the options a status-table row needs.</summary>
public static class CiceroProbeServer
{
    /// <summary>Starts the server.</summary>
    /// <param name="state">The probe's state.</param>
    /// <param name="configure">Sets Cicero's options (the service name is set already).</param>
    /// <param name="build">Adds resources or policies; optional.</param>
    /// <returns>The server.</returns>
    public static Task<TestServer> StartAsync(ProbeState state, Action<CiceroGrpcOptions>? configure = null, Action<ICiceroBuilder>? build = null) => TestServer.StartAsync(
        services =>
        {
            services.AddSingleton(state);
            var cicero = services.AddCicero(o =>
            {
                o.ServiceName = "probe";
                o.RateExchange.RunControlLoop = false;
                configure?.Invoke(o);
            });
            build?.Invoke(cicero);
        },
        app => app.MapGrpcService<ProbeService>());
}
