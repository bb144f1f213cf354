// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Grpc.Core;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.Interop;

/// <summary>A plain grpc-dotnet client (no Cicero) calls a service that runs Cicero.</summary>
public sealed class PlainClientToCiceroServerTests : TransportContractTests
{
    /// <inheritdoc />
    protected override Task<TestServer> StartServerAsync(ProbeState state) => TestServer.StartAsync(
        services =>
        {
            services.AddSingleton(state);
            services.AddCicero(o => o.ServiceName = "probe");
            services.AddGrpc(ConfigureServer);
        },
        app => app.MapGrpcService<ProbeService>());

    /// <inheritdoc />
    protected override CallInvoker CreateInvoker(GrpcChannel channel) => channel.CreateCallInvoker();

    /// <inheritdoc />
    protected override IDisposable Enter() => new Nothing();

    /// <inheritdoc />
    protected override void CheckCiceroPart(EchoReply reply, Metadata trailers)
    {
        // The plain client sent no context; Cicero admitted the call as a new request and reported on it.
        Assert.False(reply.SawCiceroContext);
        Assert.True(CiceroTrailers.TryRead(trailers, out var result), "Cicero's trailer is missing");
        Assert.Equal(string.Empty, result.Instance);
    }

    private sealed class Nothing : IDisposable
    {
        public void Dispose()
        {
        }
    }
}
