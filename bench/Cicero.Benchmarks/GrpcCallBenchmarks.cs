// SPDX-License-Identifier: Apache-2.0

using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using Cicero.Benchmarks.Protocol;
using Cicero.Context;
using Cicero.Grpc;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.ReplicaSelection;
using Cicero.Runtime;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Benchmarks;

/// <summary>
/// A unary grpc-dotnet call over loopback (<c>Grpc.AspNetCore</c> on Kestrel, cleartext HTTP/2 on 127.0.0.1, a
/// <see cref="GrpcChannel"/> client) with Cicero's client and server interceptors, against the same call with no
/// interceptors on either side.
/// </summary>
/// <remarks>
/// <para>
/// The plain server is <c>AddGrpc</c> + <c>MapGrpcService&lt;EchoService&gt;</c>; the Cicero server is the same with
/// <c>AddCicero</c> instead (<see cref="BenchServers.StartAsync"/>: <c>IsEntryPoint = false</c>, so the context header is
/// decoded; a fixed classifier; <c>QueueForAdmission</c> at its default; no rate-exchange control loop). Both echo a
/// 4-byte payload. Admission uses the default pass-through rate policy, so every workflow's rate is +∞; set-up checks
/// that, and a rejection would surface as an <see cref="RpcException"/> and fail the run.
/// </para>
/// <para>
/// The Cicero client is a <see cref="GrpcChannel"/> wrapped with <see cref="CiceroClientInterceptor"/> on its own
/// <see cref="CiceroRuntime"/> (the caller's process). Each Cicero call runs under a fresh context from
/// <see cref="CiceroRuntime.StartRequest"/>, as an inner service's call to a downstream would, so the client stamps the
/// context header, caps the deadline and joins the returned progress.
/// </para>
/// <para>
/// BenchmarkDotNet starts every server in one process; the harnesses (<see cref="GrpcCallProfile"/>,
/// <see cref="GrpcCallPaired"/>) call <see cref="SetupAsync"/> with one variant, which starts only the server that
/// variant calls. "Latency" rows make one call at a time (the Median column is the p50 per call). "Throughput" rows
/// run <see cref="CallsPerInvoke"/> calls as <see cref="Concurrency"/> concurrent loops, with
/// <c>OperationsPerInvoke</c> set so the time is per call; the inverse of their Ratio is the throughput ratio.
/// Allocations are process-wide, so they include the server's side of the call.
/// </para>
/// </remarks>
[MemoryDiagnoser]
[Config(typeof(Columns))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class GrpcCallBenchmarks
{
    /// <summary>The number of concurrent call loops in the throughput rows.</summary>
    public const int Concurrency = 8;

    /// <summary>The number of calls one throughput invocation makes.</summary>
    public const int CallsPerInvoke = Concurrency * CallsPerLoop;

    /// <summary>The variants <see cref="SetupAsync"/> knows, in the order the attribution reports them.</summary>
    internal static readonly string[] Variants = ["plain", "cicero", "client-only", "client-no-context", "server-only", "ambient-only", "wire-only", "pass-through"];

    private const int CallsPerLoop = 64;
    private const string CallerId = "bench-client";

    private static readonly EchoRequest Request = new() { Payload = ByteString.CopyFromUtf8("ping") };

    private WebApplication? _plainServer;
    private WebApplication? _ciceroServer;
    private WebApplication? _wireServer;
    private WebApplication? _passThroughServer;
    private readonly List<GrpcChannel> _channels = [];
    private Echo.EchoClient _plain = null!;
    private Echo.EchoClient _cicero = null!;
    private Echo.EchoClient _clientOnly = null!;
    private Echo.EchoClient _serverOnly = null!;
    private Echo.EchoClient _wire = null!;
    private Echo.EchoClient _passThrough = null!;
    private CallOptions _wireOptions;
    private CiceroRuntime _clientRuntime = null!;

    /// <summary>
    /// Gets or sets the CPU time every server handler spends before it answers (zero, an empty echo, unless a harness
    /// sets it before set-up): it shows how the fixed cost per call compares with a handler that works.
    /// </summary>
    internal TimeSpan HandlerWork { get; set; }

    /// <summary>Starts every server (BenchmarkDotNet, the interleaved harness).</summary>
    [GlobalSetup]
    public Task Setup() => SetupAsync(null);

    [GlobalCleanup]
    public async Task Cleanup()
    {
        await CheckAsync();
        foreach (var channel in _channels)
        {
            channel.Dispose();
        }

        _clientRuntime.Dispose();
        await BenchServers.StopAsync(_plainServer);
        await BenchServers.StopAsync(_ciceroServer);
        await BenchServers.StopAsync(_wireServer);
        await BenchServers.StopAsync(_passThroughServer);
    }

    /// <summary>Starts the servers <paramref name="variant"/> calls (all of them when <see langword="null"/>) and checks them.</summary>
    internal async Task SetupAsync(string? variant)
    {
        if (variant is not null && !Variants.Contains(variant))
        {
            throw new ArgumentException($"Unknown variant '{variant}'; use {string.Join(", ", Variants)}.", nameof(variant));
        }

        _clientRuntime = new CiceroRuntime();
        if (variant is null or "plain" or "client-only" or "client-no-context" or "ambient-only")
        {
            (_plainServer, var address) = await BenchServers.StartAsync(withCicero: false, new EchoServerSettings(HandlerWork));
            var channel = Open(address);
            _plain = new Echo.EchoClient(channel);
            _clientOnly = new Echo.EchoClient(channel.Intercept(NewClientInterceptor()));
        }

        if (variant is null or "cicero" or "server-only")
        {
            (_ciceroServer, var address) = await BenchServers.StartAsync(withCicero: true, new EchoServerSettings(HandlerWork));
            var channel = Open(address);
            _cicero = new Echo.EchoClient(channel.Intercept(NewClientInterceptor()));
            _serverOnly = new Echo.EchoClient(channel);
        }

        if (variant is null or "wire-only")
        {
            // "Wire only": no interceptors, but a header and a trailer of the sizes Cicero's carry, added by hand.
            (_wireServer, var address) = await BenchServers.StartAsync(withCicero: false, new EchoServerSettings(HandlerWork, WireTrailer()));
            _wire = new Echo.EchoClient(Open(address));
            _wireOptions = new CallOptions(new Metadata { { CiceroMetadataKeys.Context, WireContextHeader() } });
        }

        if (variant is null or "pass-through")
        {
            // "Pass-through": grpc-dotnet interceptors that do nothing, on the server (global) and on the channel.
            (_passThroughServer, var address) = await BenchServers.StartAsync(withCicero: false, new EchoServerSettings(HandlerWork), withPassThrough: true);
            _passThrough = new Echo.EchoClient(Open(address).Intercept(new PassThroughInterceptor()));
        }

        await CheckAsync();
    }

    [BenchmarkCategory("Latency")]
    [Benchmark(Baseline = true, Description = "Latency: unary call, no interceptors (baseline)")]
    public Task PlainCall() => CallAsync(_plain, withContext: false);

    [BenchmarkCategory("Latency")]
    [Benchmark(Description = "Latency: unary call, Cicero client + server interceptors")]
    public Task CiceroCall() => CallAsync(_cicero, withContext: true);

    [BenchmarkCategory("Throughput")]
    [Benchmark(Baseline = true, OperationsPerInvoke = CallsPerInvoke, Description = "Throughput: 8 concurrent loops, no interceptors (baseline)")]
    public Task PlainConcurrent() => RunConcurrentAsync(_plain, withContext: false);

    [BenchmarkCategory("Throughput")]
    [Benchmark(OperationsPerInvoke = CallsPerInvoke, Description = "Throughput: 8 concurrent loops, Cicero interceptors")]
    public Task CiceroConcurrent() => RunConcurrentAsync(_cicero, withContext: true);

    /// <summary>One call of <paramref name="variant"/> (see <see cref="Variants"/>).</summary>
    internal Func<Task> Call(string variant) => variant switch
    {
        "plain" => PlainCall,
        "cicero" => CiceroCall,
        "client-only" => () => CallAsync(_clientOnly, withContext: true),
        "client-no-context" => () => CallAsync(_clientOnly, withContext: false),
        "server-only" => () => CallAsync(_serverOnly, withContext: false),
        "ambient-only" => () => CallAsync(_plain, withContext: true),
        "wire-only" => WireCallAsync,
        "pass-through" => () => CallAsync(_passThrough, withContext: false),
        _ => throw new ArgumentException($"Unknown variant '{variant}'.", nameof(variant)),
    };

    /// <summary><see cref="CallsPerInvoke"/> calls of <paramref name="variant"/> in <see cref="Concurrency"/> loops.</summary>
    internal Func<Task> Concurrent(string variant)
    {
        var call = Call(variant);
        return () => RunConcurrentAsync(call);
    }

    private GrpcChannel Open(Uri address)
    {
        var channel = GrpcChannel.ForAddress(address);
        _channels.Add(channel);
        return channel;
    }

    private CiceroClientInterceptor NewClientInterceptor() => new(_clientRuntime, BenchServers.ServiceName, CallerId);

    // Every variant's call goes through one async method of the same shape, as a request handler's would, so that the
    // baseline is the same code path minus Cicero (and not one state machine cheaper).
    private async Task CallAsync(Echo.EchoClient client, bool withContext)
    {
        if (withContext)
        {
            // Set inside an async method, so the value is undone when it returns and never leaks into the harness.
            CiceroContext.Current = _clientRuntime.StartRequest(BenchServers.Workflow);
        }

        await client.EchoAsync(Request).ResponseAsync.ConfigureAwait(false);
    }

    private async Task WireCallAsync() => await _wire.EchoAsync(Request, _wireOptions).ResponseAsync.ConfigureAwait(false);

    private byte[] WireContextHeader() =>
        ContextHeader.Encode(_clientRuntime.Codec, _clientRuntime.StartRequest(BenchServers.Workflow), CallerIds.Encode(CallerId, "caller id"));

    /// <summary>A result trailer of the size a Cicero server sends (its instance id is an address with a 5-digit port).</summary>
    private static byte[] WireTrailer() =>
        TrailerCodec.Encode(new ProgressDelta(0.00005, 0.5), 0, TimeSpan.FromMicroseconds(50), 0, CallerIds.Encode("http://127.0.0.1:40000", "instance id"));

    private Task RunConcurrentAsync(Echo.EchoClient client, bool withContext) =>
        RunConcurrentAsync(() => CallAsync(client, withContext));

    private static Task RunConcurrentAsync(Func<Task> call)
    {
        var loops = new Task[Concurrency];
        for (var i = 0; i < loops.Length; i++)
        {
            loops[i] = LoopAsync(call);
        }

        return Task.WhenAll(loops);
    }

    private static async Task LoopAsync(Func<Task> call)
    {
        await Task.Yield();
        for (var i = 0; i < CallsPerLoop; i++)
        {
            await call().ConfigureAwait(false);
        }
    }

    /// <summary>
    /// Fails the run unless every started variant works as intended: the plain call carries no Cicero trailer, the
    /// Cicero call is admitted and carries it, and the hand-made trailer has the size of a real one.
    /// </summary>
    private async Task CheckAsync()
    {
        Metadata? ciceroTrailers = null;
        if (_plainServer is not null)
        {
            var plain = _plain.EchoAsync(Request);
            if (!(await plain.ResponseAsync).Payload.Equals(Request.Payload) || plain.GetTrailers().Get(CiceroMetadataKeys.Result) is not null)
            {
                throw new InvalidOperationException("The plain call did not echo, or it carried Cicero's trailer.");
            }
        }

        if (_ciceroServer is not null)
        {
            var serverRuntime = _ciceroServer.Services.GetRequiredService<CiceroRuntime>();
            var rate = serverRuntime.Admission.GetRate(BenchServers.Workflow);
            if (!double.IsPositiveInfinity(rate))
            {
                throw new InvalidOperationException($"Admission rate for {BenchServers.Workflow} is {rate}/s; the benchmark needs +∞ so that nothing is rejected.");
            }

            RequestContext request;
            AsyncUnaryCall<EchoReply> cicero;
            using (CiceroContext.Use(request = _clientRuntime.StartRequest(BenchServers.Workflow)))
            {
                cicero = _cicero.EchoAsync(Request);
            }

            if (!(await cicero.ResponseAsync).Payload.Equals(Request.Payload) || !CiceroTrailers.TryRead(cicero.GetTrailers(), out _))
            {
                throw new InvalidOperationException("The Cicero call did not echo, or it came back without Cicero's trailer.");
            }

            if (request.Workflow.Value != BenchServers.Workflow)
            {
                throw new InvalidOperationException($"The context's workflow is {request.Workflow.Value}.");
            }

            ciceroTrailers = cicero.GetTrailers();
        }

        if (_wireServer is not null)
        {
            var wire = _wire.EchoAsync(Request, _wireOptions);
            await wire.ResponseAsync;
            var trailer = wire.GetTrailers().GetValueBytes(CiceroMetadataKeys.Result);
            var real = ciceroTrailers?.GetValueBytes(CiceroMetadataKeys.Result);
            if (trailer is null || (real is not null && real.Length != trailer.Length))
            {
                throw new InvalidOperationException($"The wire-only trailer is {trailer?.Length} bytes; Cicero's is {real?.Length}.");
            }
        }

        if (_passThroughServer is not null && !(await _passThrough.EchoAsync(Request).ResponseAsync).Payload.Equals(Request.Payload))
        {
            throw new InvalidOperationException("The pass-through call did not echo.");
        }
    }

    private sealed class Columns : ManualConfig
    {
        public Columns()
        {
            AddColumn(StatisticColumn.Median, StatisticColumn.P95);
            AddColumn(
                new LaunchMedianColumn(LaunchMedianColumn.Kind.Launches),
                new LaunchMedianColumn(LaunchMedianColumn.Kind.Median),
                new LaunchMedianColumn(LaunchMedianColumn.Kind.Ratio));
        }
    }
}
