// SPDX-License-Identifier: Apache-2.0

using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Cicero.Benchmarks.Protocol;
using Cicero.Context;
using Cicero.Grpc;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Client;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Server;
using Cicero.Runtime;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Benchmarks;

/// <summary>
/// Cicero's grpc-dotnet interceptors alone, without a transport: what one call costs in Cicero's own code on each side.
/// The client row runs <see cref="CiceroClientInterceptor"/> over a continuation that returns a completed call with
/// Cicero's result trailer (as grpc-dotnet does once the response is read); the server row runs
/// <see cref="CiceroServerInterceptor"/> around a handler that returns at once, with the context header as the client
/// sends it, read from the HTTP request as under ASP.NET Core. Baselines: the same calls through grpc-dotnet's
/// pass-through <see cref="Interceptor"/>.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class InterceptorBenchmarks
{
    private const string Workflow = "bench-tenant";
    private const string MethodName = "/cicero.bench.v1.Echo/Echo";

    private static readonly Marshaller<EchoRequest> RequestMarshaller = Marshallers.Create(r => r.ToByteArray(), EchoRequest.Parser.ParseFrom);
    private static readonly Marshaller<EchoReply> ReplyMarshaller = Marshallers.Create(r => r.ToByteArray(), EchoReply.Parser.ParseFrom);
    private static readonly Method<EchoRequest, EchoReply> EchoMethod = new(MethodType.Unary, "cicero.bench.v1.Echo", "Echo", RequestMarshaller, ReplyMarshaller);
    private static readonly EchoRequest Request = new() { Payload = ByteString.CopyFromUtf8("ping") };
    private static readonly EchoReply Reply = new() { Payload = Request.Payload };
    private static readonly Task<EchoReply> CompletedReply = Task.FromResult(Reply);
    private static readonly Task<Metadata> NoHeaders = Task.FromResult(Metadata.Empty);

    private readonly Interceptor _passThrough = new PassThroughInterceptor();
    private CiceroRuntime _clientRuntime = null!;
    private CiceroRuntime _serverRuntime = null!;
    private CiceroClientInterceptor _client = null!;
    private CiceroServerInterceptor _server = null!;
    private Metadata _requestHeaders = null!;
    private Dictionary<object, object> _userState = null!;
    private byte[] _trailer = null!;
    private Interceptor.AsyncUnaryCallContinuation<EchoRequest, EchoReply> _transport = null!;

    [GlobalSetup]
    public void Setup()
    {
        _clientRuntime = new CiceroRuntime();
        _serverRuntime = new CiceroRuntime();
        _client = new CiceroClientInterceptor(_clientRuntime, "bench-server", "bench-client");
        var options = new CiceroGrpcOptions
        {
            ServiceName = "bench-server",
            InstanceId = "http://127.0.0.1:40000",
            IsEntryPoint = false,
            Classifier = WorkflowClassifiers.Fixed(Workflow),
        };
        _server = new CiceroServerInterceptor(_serverRuntime, options, new CiceroInstance(options, null!));
        var header = ContextHeader.Encode(_clientRuntime.Codec, _clientRuntime.StartRequest(Workflow), CallerIds.Encode("bench-client", "caller id"));
        _requestHeaders = new Metadata { { CiceroMetadataKeys.Context, header } };

        // What Kestrel hands grpc-dotnet: the header as gRPC sends binary values, base64 without padding.
        var http = new DefaultHttpContext();
        http.Request.Headers[CiceroMetadataKeys.Context] = Convert.ToBase64String(header).TrimEnd('=');
        _userState = new Dictionary<object, object> { [BenchServerCallContext.HttpContextKey] = http };
        _trailer = TrailerCodec.Encode(new ProgressDelta(0.0001, 0.5), 0, TimeSpan.FromMilliseconds(0.05), 0, CallerIds.Encode("http://127.0.0.1:40000", "instance id"));
        _transport = CompletedCall;
        if (ServerCicero() != Reply || ClientCicero() != Reply)
        {
            throw new InvalidOperationException("An interceptor did not pass the reply through.");
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _clientRuntime.Dispose();
        _serverRuntime.Dispose();
    }

    [BenchmarkCategory("Client")]
    [Benchmark(Baseline = true, Description = "Client: pass-through interceptor, no context")]
    public EchoReply ClientPassThrough() =>
        _passThrough.AsyncUnaryCall(Request, new ClientInterceptorContext<EchoRequest, EchoReply>(EchoMethod, null, default(CallOptions)), _transport)
            .ResponseAsync.GetAwaiter().GetResult();

    [BenchmarkCategory("Client")]
    [Benchmark(Description = "Client: StartRequest + Cicero interceptor (stamp, completion, progress join)")]
    public EchoReply ClientCicero()
    {
        using var scope = CiceroContext.Use(_clientRuntime.StartRequest(Workflow));
        return _client.AsyncUnaryCall(Request, new ClientInterceptorContext<EchoRequest, EchoReply>(EchoMethod, null, default(CallOptions)), _transport)
            .ResponseAsync.GetAwaiter().GetResult();
    }

    [BenchmarkCategory("Server")]
    [Benchmark(Baseline = true, Description = "Server: pass-through interceptor")]
    public EchoReply ServerPassThrough() =>
        _passThrough.UnaryServerHandler(Request, NewServerCall(), static (_, _) => CompletedReply).GetAwaiter().GetResult();

    [BenchmarkCategory("Server")]
    [Benchmark(Description = "Server: Cicero interceptor (decode, admit, ambient context, trailer, completion)")]
    public EchoReply ServerCicero() =>
        _server.UnaryServerHandler(Request, NewServerCall(), static (_, _) => CompletedReply).GetAwaiter().GetResult();

    private BenchServerCallContext NewServerCall() => new(MethodName, _requestHeaders, _userState);

    // grpc-dotnet builds the trailers' Metadata for every call it completes, so the double does too.
    private AsyncUnaryCall<EchoReply> CompletedCall(EchoRequest request, ClientInterceptorContext<EchoRequest, EchoReply> context)
    {
        var trailers = new Metadata { { CiceroMetadataKeys.Result, _trailer } };
        return new AsyncUnaryCall<EchoReply>(CompletedReply, NoHeaders, static () => Status.DefaultSuccess, () => trailers, static () => { });
    }

}
