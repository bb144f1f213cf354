// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Cicero.Context;
using Cicero.Grpc;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Client;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Runtime;
using Microsoft.AspNetCore.Http;

namespace Cicero.Benchmarks;

/// <summary>
/// Cicero's interceptors alone, without a transport: what one call costs in Cicero's own code on each side. The client
/// row runs the interceptor over a transport double that completes at once (and tells the interceptor, as the real
/// transport does); the server row runs the interceptor around a handler that returns at once, with a context header
/// as the client would send it. Baselines: the same calls with pass-through interceptors.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class InterceptorBenchmarks
{
    private const string Workflow = "bench-tenant";

    private static readonly Marshaller<string> Utf8 = new(
        static (value, writer) => writer.Write(System.Text.Encoding.UTF8.GetBytes(value)),
        static sequence => System.Text.Encoding.UTF8.GetString(sequence.ToArray()));

    private static readonly Method<string, string> Echo = new(MethodType.Unary, "bench.Echo", "Echo", Utf8, Utf8);

    private readonly ClientInterceptor _passThroughClient = new PassThroughClientInterceptor();
    private readonly ServerInterceptor _passThroughServer = new PassThroughServerInterceptor();
    private CiceroRuntime _clientRuntime = null!;
    private CiceroRuntime _serverRuntime = null!;
    private CiceroClientInterceptor _client = null!;
    private CiceroServerInterceptor _server = null!;
    private Metadata _requestHeaders = null!;
    private DefaultHttpContext _http = null!;
    private MetadataEntry _trailer = null!;
    private AsyncUnaryCallContinuation<string, string> _transport = null!;

    [GlobalSetup]
    public void Setup()
    {
        _clientRuntime = new CiceroRuntime();
        _serverRuntime = new CiceroRuntime();
        _client = new CiceroClientInterceptor(_clientRuntime, "bench-server", "bench-client");
        var options = new CiceroGrpcOptions
        {
            ServiceName = "bench-server",
            InstanceId = "http://127.0.0.1:40000/",
            IsEntryPoint = false,
            Classifier = WorkflowClassifiers.Fixed(Workflow),
        };
        _server = new CiceroServerInterceptor(_serverRuntime, options, new CiceroInstance(options, null!));
        var header = ContextHeader.EncodeBase64(_clientRuntime.Codec, _clientRuntime.StartRequest(Workflow), "bench-client"u8);
        _requestHeaders = new Metadata();
        _requestHeaders.AddRaw(MetadataEntry.FromOwnBase64(CiceroMetadataKeys.Context, header));
        _http = new DefaultHttpContext();
        _trailer = MetadataEntry.FromOwnBase64(
            CiceroMetadataKeys.Result,
            TrailerCodec.EncodeBase64(new ProgressDelta(0.0001, 0.5), 0, TimeSpan.FromMilliseconds(0.05), 0, "http://127.0.0.1:40000/"u8));
        _transport = CompletedCall;
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _clientRuntime.Dispose();
        _serverRuntime.Dispose();
    }

    [BenchmarkCategory("Client")]
    [Benchmark(Baseline = true, Description = "Client: pass-through interceptor, no context")]
    public string ClientPassThrough() =>
        _passThroughClient.AsyncUnaryCall("ping", new ClientInterceptorContext<string, string>(Echo, default), _transport).ResponseAsync.Result;

    [BenchmarkCategory("Client")]
    [Benchmark(Description = "Client: StartRequest + Cicero interceptor (stamp, completion, progress join)")]
    public string ClientCicero()
    {
        using var scope = CiceroContext.Use(_clientRuntime.StartRequest(Workflow));
        return _client.AsyncUnaryCall("ping", new ClientInterceptorContext<string, string>(Echo, default), _transport).ResponseAsync.Result;
    }

    [BenchmarkCategory("Server")]
    [Benchmark(Baseline = true, Description = "Server: pass-through interceptor")]
    public string ServerPassThrough() =>
        _passThroughServer.UnaryServerHandler("ping", NewServerCall(), static (request, _) => Task.FromResult(request)).Result;

    [BenchmarkCategory("Server")]
    [Benchmark(Description = "Server: Cicero interceptor (decode, admit, ambient context, trailer, completion)")]
    public string ServerCicero() =>
        _server.UnaryServerHandler("ping", NewServerCall(), static (request, _) => Task.FromResult(request)).Result;

    private ServerCallContext NewServerCall() => new(_http, Echo.FullName, MethodType.Unary, _requestHeaders, null, CancellationToken.None);

    private AsyncUnaryCall<string> CompletedCall(string request, ClientInterceptorContext<string, string> context)
    {
        var trailers = new Metadata();
        trailers.AddRaw(_trailer);
        var observer = context.Options.CompletionObserver;
        observer?.Attach();
        observer?.OnCallCompleted(RpcStatus.Ok, trailers);
        return new AsyncUnaryCall<string>(Task.FromResult(request), Task.FromResult(trailers), static () => RpcStatus.Ok, () => trailers, static () => { });
    }

    private sealed class PassThroughClientInterceptor : ClientInterceptor;

    private sealed class PassThroughServerInterceptor : ServerInterceptor;
}
