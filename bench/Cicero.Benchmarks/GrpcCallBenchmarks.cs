// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Net;
using System.Text;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using Cicero.Context;
using Cicero.Grpc;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Context;
using Cicero.Grpc.Client;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Runtime;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Benchmarks;

/// <summary>
/// A unary gRPC call over loopback (Kestrel, cleartext HTTP/2 on 127.0.0.1) with Cicero's client and server
/// interceptors against the same call with no interceptors on either side, measured in the same run.
/// </summary>
/// <remarks>
/// <para>
/// Two Kestrel servers run in this process, one plain and one with <c>AddCicero</c> (<c>IsEntryPoint = false</c>, so the
/// context header is decoded; a fixed classifier; <c>QueueForAdmission</c> at its default; no rate-exchange control
/// loop). Both echo a 4-byte UTF-8 string. Admission uses the default pass-through rate policy, so every workflow's
/// rate is +∞; setup checks that, and a rejection would surface as an <see cref="RpcException"/> and fail the run.
/// </para>
/// <para>
/// The Cicero client is the same channel type wrapped with <see cref="CiceroClientInterceptor"/> on its own
/// <see cref="CiceroRuntime"/> (the caller's process). Each Cicero call runs under a fresh context from
/// <see cref="CiceroRuntime.StartRequest"/>, as a request that makes one downstream call would, so the client stamps
/// the context and caller headers and joins the returned progress counters.
/// </para>
/// <para>
/// "Latency" rows make one call at a time (the Median column is the p50 per call). "Throughput" rows run
/// <see cref="CallsPerInvoke"/> calls as <see cref="Concurrency"/> concurrent loops, with
/// <c>OperationsPerInvoke</c> set so the time is per call; the inverse of their Ratio is the throughput ratio. Each
/// category has its own baseline. Allocations are process-wide, so they include the server's side of the call.
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

    private const int CallsPerLoop = 64;
    private const string Workflow = "bench-tenant";
    private const string Payload = "ping";

    private static readonly Marshaller<string> Utf8 = new(
        (value, writer) =>
        {
            var span = writer.GetSpan(Encoding.UTF8.GetMaxByteCount(value.Length));
            writer.Advance(Encoding.UTF8.GetBytes(value, span));
        },
        sequence => Encoding.UTF8.GetString(sequence));

    private static readonly Method<string, string> Echo = new(MethodType.Unary, "bench.Echo", "Echo", Utf8, Utf8);

    private WebApplication _plainServer = null!;
    private WebApplication _ciceroServer = null!;
    private RpcChannel _plainChannel = null!;
    private RpcChannel _ciceroChannel = null!;
    private CallInvoker _plainInvoker = null!;
    private CallInvoker _ciceroInvoker = null!;
    private CallInvoker _clientOnlyInvoker = null!;
    private CallInvoker _serverOnlyInvoker = null!;
    private WebApplication _wireServer = null!;
    private RpcChannel _wireChannel = null!;
    private CallInvoker _wireInvoker = null!;
    private CallOptions _wireOptions;
    private CiceroRuntime _clientRuntime = null!;

    /// <summary>
    /// Gets or sets the CPU time every server handler spends before it answers (zero, an empty echo, unless a harness
    /// sets it before <see cref="Setup"/>): it shows how the fixed cost per call compares with a handler that works.
    /// </summary>
    internal TimeSpan HandlerWork { get; set; }

    [GlobalSetup]
    public async Task Setup()
    {
        (_plainServer, var plainAddress) = await StartServerAsync(withCicero: false, HandlerWork);
        (_ciceroServer, var ciceroAddress) = await StartServerAsync(withCicero: true, HandlerWork);

        _clientRuntime = new CiceroRuntime();
        _plainChannel = RpcChannel.ForAddress(plainAddress);
        _ciceroChannel = RpcChannel.ForAddress(ciceroAddress);
        _plainInvoker = _plainChannel.CreateCallInvoker();
        _ciceroInvoker = _ciceroChannel.CreateCallInvoker().Intercept(new CiceroClientInterceptor(_clientRuntime, "bench-server", "bench-client"));
        _clientOnlyInvoker = _plainChannel.CreateCallInvoker().Intercept(new CiceroClientInterceptor(_clientRuntime, "bench-server", "bench-client"));
        _serverOnlyInvoker = _ciceroChannel.CreateCallInvoker();

        // "Wire only": no interceptors, but a header and a trailer of the sizes Cicero's carry, added by hand.
        (_wireServer, var wireAddress) = await StartServerAsync(withCicero: false, HandlerWork, await CiceroTrailerAsync());
        _wireChannel = RpcChannel.ForAddress(wireAddress);
        _wireInvoker = _wireChannel.CreateCallInvoker();
        _wireOptions = new CallOptions(new Metadata().Add(CiceroMetadataKeys.Context, WireContextHeader()));

        await CheckAsync();
    }

    [GlobalCleanup]
    public async Task Cleanup()
    {
        await CheckAsync();
        _plainChannel.Dispose();
        _ciceroChannel.Dispose();
        _wireChannel.Dispose();
        _clientRuntime.Dispose();
        foreach (var server in new[] { _plainServer, _ciceroServer, _wireServer })
        {
            await server.StopAsync();
            await server.DisposeAsync();
        }
    }

    [BenchmarkCategory("Latency")]
    [Benchmark(Baseline = true, Description = "Latency: unary call, no interceptors (baseline)")]
    public Task<string> PlainCall() => CallAsync(_plainInvoker, withContext: false);

    [BenchmarkCategory("Latency")]
    [Benchmark(Description = "Latency: unary call, Cicero client + server interceptors")]
    public Task<string> CiceroCall() => CiceroCallAsync();

    [BenchmarkCategory("Throughput")]
    [Benchmark(Baseline = true, OperationsPerInvoke = CallsPerInvoke, Description = "Throughput: 8 concurrent loops, no interceptors (baseline)")]
    public Task PlainConcurrent() => RunConcurrentAsync(static b => b.PlainLoopAsync());

    [BenchmarkCategory("Throughput")]
    [Benchmark(OperationsPerInvoke = CallsPerInvoke, Description = "Throughput: 8 concurrent loops, Cicero interceptors")]
    public Task CiceroConcurrent() => RunConcurrentAsync(static b => b.CiceroLoopAsync());

    /// <summary>For attribution (not a benchmark): one call of the Cicero client against the plain server.</summary>
    internal Task<string> ClientOnlyCall() => CallAsync(_clientOnlyInvoker, withContext: true);

    /// <summary>For attribution (not a benchmark): the Cicero client against the plain server, 8 loops.</summary>
    internal Task ClientOnlyConcurrent() => RunConcurrentAsync(static b => b.LoopAsync(b._clientOnlyInvoker, withContext: true));

    /// <summary>For attribution (not a benchmark): one call of a plain client against the Cicero server.</summary>
    internal Task<string> ServerOnlyCall() => CallAsync(_serverOnlyInvoker, withContext: false);

    /// <summary>For attribution (not a benchmark): a plain client against the Cicero server (it classifies every call), 8 loops.</summary>
    internal Task ServerOnlyConcurrent() => RunConcurrentAsync(static b => b.LoopAsync(b._serverOnlyInvoker, withContext: false));

    /// <summary>For attribution (not a benchmark): one plain call made with a Cicero context set as ambient (no interceptors).</summary>
    internal Task<string> AmbientOnlyCall() => CallAsync(_plainInvoker, withContext: true);

    /// <summary>For attribution (not a benchmark): plain calls made with a Cicero context set as ambient, 8 loops.</summary>
    internal Task AmbientOnlyConcurrent() => RunConcurrentAsync(static b => b.LoopAsync(b._plainInvoker, withContext: true));

    /// <summary>For attribution (not a benchmark): one plain call carrying a header and getting a trailer of Cicero's sizes.</summary>
    internal Task<string> WireOnlyCall() => WireCallAsync();

    /// <summary>For attribution (not a benchmark): plain calls carrying Cicero-sized metadata, 8 loops.</summary>
    internal Task WireOnlyConcurrent() => RunConcurrentAsync(static async b =>
    {
        await Task.Yield();
        for (var i = 0; i < CallsPerLoop; i++)
        {
            await b.WireCallAsync().ConfigureAwait(false);
        }
    });

    // Every variant's call goes through one async method of the same shape, as a request handler's would, so that the
    // baseline is the same code path minus Cicero (and not one state machine cheaper).
    private async Task<string> CallAsync(CallInvoker invoker, bool withContext)
    {
        if (withContext)
        {
            CiceroContext.Current = _clientRuntime.StartRequest(Workflow);
        }

        return await invoker.AsyncUnaryCall(Echo, default, Payload).ResponseAsync.ConfigureAwait(false);
    }

    private async Task<string> WireCallAsync() =>
        await _wireInvoker.AsyncUnaryCall(Echo, _wireOptions, Payload).ResponseAsync.ConfigureAwait(false);

    private byte[] WireContextHeader() =>
        Convert.FromBase64String(PadBase64(ContextHeader.EncodeBase64(_clientRuntime.Codec, _clientRuntime.StartRequest(Workflow), "bench-client"u8)));

    private static string PadBase64(string unpadded) => unpadded.PadRight((unpadded.Length + 3) / 4 * 4, '=');

    /// <summary>The trailer a real Cicero call comes back with, so the hand-made one has its exact size.</summary>
    private async Task<byte[]> CiceroTrailerAsync()
    {
        using var scope = CiceroContext.Use(_clientRuntime.StartRequest(Workflow));
        var call = _ciceroInvoker.AsyncUnaryCall(Echo, default, Payload);
        await call.ResponseAsync;
        return call.GetTrailers().GetValueBytes(CiceroMetadataKeys.Result) ?? throw new InvalidOperationException("The Cicero call carried no result trailer.");
    }

    private async Task LoopAsync(CallInvoker invoker, bool withContext)
    {
        await Task.Yield();
        for (var i = 0; i < CallsPerLoop; i++)
        {
            await CallAsync(invoker, withContext).ConfigureAwait(false);
        }
    }

    private static async Task<(WebApplication App, Uri Address)> StartServerAsync(bool withCicero, TimeSpan handlerWork, byte[]? wireTrailer = null)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0, o => o.Protocols = HttpProtocols.Http2));
        if (withCicero)
        {
            builder.Services.AddCicero(o =>
            {
                o.ServiceName = "bench-server";
                o.IsEntryPoint = false;
                o.Classifier = WorkflowClassifiers.Fixed(Workflow);
                o.RateExchange.RunControlLoop = false;
            });
        }

        var app = builder.Build();
        app.MapGrpcUnary(Echo, (string request, ServerCallContext context) =>
        {
            if (wireTrailer is not null)
            {
                context.ResponseTrailers.Add(CiceroMetadataKeys.Result, wireTrailer);
            }

            Work(handlerWork);
            return Task.FromResult(request);
        });

        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return (app, new Uri(address.Replace("[::]", "127.0.0.1", StringComparison.Ordinal)));
    }

    // Busy on purpose: the handler stands for CPU-bound work of a given length, not for waiting.
    private static void Work(TimeSpan duration)
    {
        if (duration <= TimeSpan.Zero)
        {
            return;
        }

        var start = Stopwatch.GetTimestamp();
        while (Stopwatch.GetElapsedTime(start) < duration)
        {
            Thread.SpinWait(20);
        }
    }

    private async Task<string> CiceroCallAsync()
    {
        // Set inside an async method, so the value is undone when it returns and never leaks into the harness.
        CiceroContext.Current = _clientRuntime.StartRequest(Workflow);
        return await _ciceroInvoker.AsyncUnaryCall(Echo, default, Payload).ResponseAsync.ConfigureAwait(false);
    }

    private Task RunConcurrentAsync(Func<GrpcCallBenchmarks, Task> loop)
    {
        var loops = new Task[Concurrency];
        for (var i = 0; i < loops.Length; i++)
        {
            loops[i] = loop(this);
        }

        return Task.WhenAll(loops);
    }

    private async Task PlainLoopAsync()
    {
        await Task.Yield();
        for (var i = 0; i < CallsPerLoop; i++)
        {
            await CallAsync(_plainInvoker, withContext: false).ConfigureAwait(false);
        }
    }

    private async Task CiceroLoopAsync()
    {
        await Task.Yield();
        for (var i = 0; i < CallsPerLoop; i++)
        {
            await CiceroCallAsync().ConfigureAwait(false);
        }
    }

    /// <summary>Fails the run unless the plain call carries no Cicero trailers and the Cicero call is admitted and carries them.</summary>
    private async Task CheckAsync()
    {
        var serverRuntime = _ciceroServer.Services.GetRequiredService<CiceroRuntime>();
        var rate = serverRuntime.Admission.GetRate(Workflow);
        if (!double.IsPositiveInfinity(rate))
        {
            throw new InvalidOperationException($"Admission rate for {Workflow} is {rate}/s; the benchmark needs +∞ so that nothing is rejected.");
        }

        var plain = _plainInvoker.AsyncUnaryCall(Echo, default, Payload);
        if (await plain.ResponseAsync != Payload || plain.GetTrailers().GetValueBytes(CiceroMetadataKeys.Result) is not null)
        {
            throw new InvalidOperationException("The plain call did not echo, or it carried Cicero trailers.");
        }

        RequestContext request;
        AsyncUnaryCall<string> cicero;
        using (CiceroContext.Use(request = _clientRuntime.StartRequest(Workflow)))
        {
            cicero = _ciceroInvoker.AsyncUnaryCall(Echo, default, Payload);
        }

        if (await cicero.ResponseAsync != Payload
            || !CiceroTrailers.TryRead(cicero.GetTrailers(), out _))
        {
            throw new InvalidOperationException("The Cicero call did not echo, or it came back without Cicero's trailers.");
        }

        if (request.Workflow.Value != Workflow)
        {
            throw new InvalidOperationException($"The context's workflow is {request.Workflow.Value}.");
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
