// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Grpc.AspNetCore.Server;
using Grpc.Core;
using Grpc.Net.Client;

namespace Cicero.Grpc.Interop.Tests.Interop;

/// <summary>
/// What grpc-dotnet guarantees, checked with Cicero on one side only: gzip both ways with 5 MB messages, deadlines,
/// cancellation and server streaming. Each derived class supplies the server and the client.
/// </summary>
public abstract class TransportContractTests : IAsyncLifetime
{
    private const int StreamMessageSize = 1024 * 1024;
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);
    private readonly ConcurrentQueue<string?> _responseEncodings = new();
    private TestServer? _server;
    private GrpcChannel? _channel;

    /// <summary>Gets the server's state.</summary>
    protected ProbeState State { get; } = new();

    /// <summary>Gets the client.</summary>
    protected Probe.ProbeClient Client { get; private set; } = null!;

    /// <summary>Gets headers that make grpc-dotnet's client compress the request with gzip.</summary>
    protected static Metadata Gzip => new() { { "grpc-internal-encoding-request", "gzip" } };

    /// <summary>Sets a server's gRPC options: gzip responses, room for 5 MB messages.</summary>
    /// <param name="options">The options.</param>
    public static void ConfigureServer(GrpcServiceOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.ResponseCompressionAlgorithm = "gzip";
        options.MaxReceiveMessageSize = Payloads.MaxMessageSize;
        options.MaxSendMessageSize = Payloads.MaxMessageSize;
    }

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        _server = await StartServerAsync(State);
        _channel = GrpcChannel.ForAddress(_server.Address, new GrpcChannelOptions
        {
            HttpHandler = new WireTap(responseEncodings: _responseEncodings),
            DisposeHttpClient = true,
            MaxReceiveMessageSize = Payloads.MaxMessageSize,
            MaxSendMessageSize = Payloads.MaxMessageSize,
        });
        Client = new Probe.ProbeClient(CreateInvoker(_channel));

        // Connected before the tests start, so that short deadlines measure the call, not the connection set-up.
        await Client.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(30));
        _responseEncodings.Clear();
        State.ResetCalls();
    }

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        _channel?.Dispose();
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }

    [Fact]
    public async Task Five_megabyte_messages_cross_gzip_compressed_both_ways()
    {
        var payload = Payloads.Create(Payloads.FiveMegabytes, seed: 7);
        using var scope = Enter();
        using var call = Client.EchoAsync(new EchoRequest { Payload = payload }, Gzip, DateTime.UtcNow.AddSeconds(30));
        var reply = await call.ResponseAsync;

        Assert.True(payload.Equals(reply.Payload), "the 5 MB payload came back changed");
        Assert.True(reply.RequestCompressed, "the request was not gzip-compressed");
        Assert.Equal("gzip", Assert.Single(_responseEncodings));
        CheckCiceroPart(reply, call.GetTrailers());
    }

    [Fact]
    public async Task Call_past_its_deadline_ends_deadline_exceeded_and_the_handler_is_cancelled()
    {
        // Long enough for Cicero's drop policy, which learned from the warm-up call how long calls take here, to
        // admit it rather than refuse it as infeasible: the handler must run and then be cut off.
        using var scope = Enter();
        using var call = Client.HoldAsync(new HoldRequest(), Gzip, DateTime.UtcNow.AddSeconds(2));
        Assert.True(await State.HoldStarted.WaitAsync(Patience), "the held call never started");

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);
        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.True(await State.HoldCancelled.WaitAsync(Patience), "the handler never saw its deadline");
    }

    [Fact]
    public async Task Cancelled_call_ends_cancelled_and_the_handler_sees_it()
    {
        using var scope = Enter();
        using var cancel = new CancellationTokenSource();
        using var call = Client.HoldAsync(new HoldRequest(), Gzip, DateTime.UtcNow.AddSeconds(30), cancel.Token);
        Assert.True(await State.HoldStarted.WaitAsync(Patience), "the held call never started");

        await cancel.CancelAsync();

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);
        Assert.Equal(StatusCode.Cancelled, ex.StatusCode);
        Assert.True(await State.HoldCancelled.WaitAsync(Patience), "the handler never saw the cancellation");
    }

    [Fact]
    public async Task Server_streaming_delivers_every_message_gzip_compressed()
    {
        const int Count = 5;
        using var scope = Enter();
        using var call = Client.Stream(new StreamRequest { Count = Count, Size = StreamMessageSize }, Gzip, DateTime.UtcNow.AddSeconds(30));

        var received = 0;
        EchoReply? last = null;
        while (await call.ResponseStream.MoveNext(CancellationToken.None))
        {
            last = call.ResponseStream.Current;
            Assert.True(Payloads.Create(StreamMessageSize, received).Equals(last.Payload), $"message {received} came back changed");
            received++;
        }

        Assert.Equal(Count, received);
        Assert.Equal("gzip", Assert.Single(_responseEncodings));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
        CheckCiceroPart(last!, call.GetTrailers());
    }

    /// <summary>Starts the server under test, with <see cref="ConfigureServer"/> and the probe service.</summary>
    /// <param name="state">The probe's state.</param>
    /// <returns>The server.</returns>
    protected abstract Task<TestServer> StartServerAsync(ProbeState state);

    /// <summary>Creates the client's call invoker on the channel.</summary>
    /// <param name="channel">The channel.</param>
    /// <returns>The invoker.</returns>
    protected abstract CallInvoker CreateInvoker(GrpcChannel channel);

    /// <summary>Enters what the client's calls run in: a Cicero request, or nothing for a plain client.</summary>
    /// <returns>The scope.</returns>
    protected abstract IDisposable Enter();

    /// <summary>Checks what Cicero added or left out on this pairing.</summary>
    /// <param name="reply">The server's reply.</param>
    /// <param name="trailers">The call's trailers.</param>
    protected abstract void CheckCiceroPart(EchoReply reply, Metadata trailers);
}
