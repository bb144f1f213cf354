// SPDX-License-Identifier: Apache-2.0

using System.Net;
using Cicero.Benchmarks.Protocol;
using Cicero.Grpc.Classification;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Benchmarks.Outcome;

/// <summary>How one replica of the outcome harness serves: its service time, its slow calls, its slots, its slow phase.</summary>
/// <param name="Index">The replica's index, returned in every reply so the client can count shares.</param>
/// <param name="ServiceMs">The service time of a normal call (waited, not spun: the server has no CPU limit of its own).</param>
/// <param name="SlowFraction">The fraction of calls that take <paramref name="SlowMs"/> instead.</param>
/// <param name="SlowMs">The service time of a slow call.</param>
/// <param name="Slots">How many calls are served at once; 0 for unlimited (the others wait for a slot, FIFO).</param>
internal sealed record OutcomeReplica(int Index, double ServiceMs, double SlowFraction = 0, double SlowMs = 0, int Slots = 0)
{
    private volatile int _slowdown = 1;

    /// <summary>Gets or sets the factor the service time is multiplied by (the slow phase of the slowdown scenario).</summary>
    public int Slowdown { get => _slowdown; set => _slowdown = value; }

    public SemaphoreSlim? Gate { get; } = Slots > 0 ? new SemaphoreSlim(Slots, Slots) : null;

    public TimeSpan NextServiceTime()
    {
        var ms = SlowFraction > 0 && System.Random.Shared.NextDouble() < SlowFraction ? SlowMs : ServiceMs;
        return TimeSpan.FromMilliseconds(ms * Slowdown);
    }
}

/// <summary>Serves the echo call as the replica's settings say and answers with the replica's index.</summary>
internal sealed class OutcomeService(OutcomeReplica replica) : Echo.EchoBase
{
    private readonly ByteString _index = ByteString.CopyFrom((byte)replica.Index);

    public override async Task<EchoReply> Echo(EchoRequest request, ServerCallContext context)
    {
        await Task.Delay(replica.NextServiceTime(), context.CancellationToken).ConfigureAwait(false);
        return new EchoReply { Payload = _index };
    }
}

/// <summary>
/// The replica's slots, outermost of the server's interceptors: a call waits here for a slot before Cicero's
/// interceptor times it, so the service time the trailer reports excludes the wait, as on a server whose queue is in
/// front of the application (a thread pool, a connection limit).
/// </summary>
internal sealed class SlotInterceptor(OutcomeReplica replica) : Interceptor
{
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        if (replica.Gate is not { } gate)
        {
            return await continuation(request, context).ConfigureAwait(false);
        }

        await gate.WaitAsync(context.CancellationToken).ConfigureAwait(false);
        try
        {
            return await continuation(request, context).ConfigureAwait(false);
        }
        finally
        {
            gate.Release();
        }
    }
}

/// <summary>Starts the harness's replicas: Grpc.AspNetCore on 127.0.0.1 with Cicero's server interceptor on each.</summary>
internal static class OutcomeServers
{
    public static async Task<(WebApplication App, Uri Address)> StartAsync(OutcomeReplica replica)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0, o => o.Protocols = HttpProtocols.Http2));
        builder.Services.AddSingleton(replica);
        builder.Services.AddSingleton<SlotInterceptor>();

        // Registered before AddCicero, so the slot interceptor runs outside Cicero's.
        builder.Services.AddGrpc(o => o.Interceptors.Add<SlotInterceptor>());
        builder.Services.AddCicero(o =>
        {
            o.ServiceName = "catalog";
            o.IsEntryPoint = false;
            o.Classifier = WorkflowClassifiers.Fixed("outcome");
            o.RateExchange.RunControlLoop = false;
        });
        var app = builder.Build();
        app.MapGrpcService<OutcomeService>();
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return (app, new Uri(address.Replace("[::]", "127.0.0.1", StringComparison.Ordinal)));
    }
}
