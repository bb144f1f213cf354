// SPDX-License-Identifier: Apache-2.0

using System.Text;
using Cicero.Context;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Runtime;
using Cicero.Time;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Interceptors;

/// <summary>
/// The client interceptor over grpc-dotnet continuations: inside a request it stamps the context and caller id, caps
/// the deadline at the budget left and joins the callee's b exactly once however the call ends; outside one it hands
/// the call through untouched.
/// </summary>
public sealed class CiceroClientInterceptorTests : IDisposable
{
    private const string Downstream = "leaf";
    private static readonly ProgressDelta CalleeProgress = new(0.25, 2);

    private readonly VirtualTimeProvider _clock = new();
    private readonly CiceroRuntime _runtime;
    private readonly CiceroClientInterceptor _interceptor;

    public CiceroClientInterceptorTests()
    {
        _clock.Advance(TimeSpan.FromHours(1));
        _runtime = new CiceroRuntime(timeProvider: _clock);
        _interceptor = new CiceroClientInterceptor(_runtime, Downstream, "caller-1");
    }

    public void Dispose() => _runtime.Dispose();

    [Fact]
    public async Task Unary_InsideARequest_StampsContextAndCaller_AndJoinsTheCalleesProgressOnce()
    {
        var request = _runtime.StartRequest("tenant-a");
        request.Progress.AddLocalWork(0.5, 1);
        var fake = new FakeCall();
        AsyncUnaryCall<string> call;
        using (CiceroContext.Use(request))
        {
            call = _interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary), fake.ContinueUnary);
        }

        var (sent, caller) = ReadHeader(fake.SentOptions.Headers);
        Assert.Equal("tenant-a", sent.Workflow.Value);
        Assert.Equal(new ProgressDelta(0.5, 1), sent.BeforeArrival);
        Assert.Equal("caller-1", caller);
        Assert.Null(fake.SentOptions.Deadline);

        fake.Succeed("pong", Trailers(CalleeProgress, "callee-1"));
        Assert.Equal("pong", await call);
        Assert.Equal("pong", await call.ResponseAsync);
        call.Dispose();

        Assert.Equal(new ProgressDelta(0.75, 3), request.Progress.Current);
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        _runtime.Model.CloseInterval();
        Assert.Equal(1, _runtime.Model.Get(_runtime.Registry.Resolve("tenant-a")).GetInstanceFraction(Downstream, "callee-1"));
    }

    [Fact]
    public void Unary_InsideARequest_CapsTheDeadlineAtTheBudget_KeepsOtherHeaders_AndReplacesACopiedContext()
    {
        var request = _runtime.StartRequest("tenant-a", TimeSpan.FromSeconds(2));
        _clock.Advance(TimeSpan.FromMilliseconds(500));
        var now = _clock.GetUtcNow().UtcDateTime;
        var later = new FakeCall();
        var sooner = new FakeCall();
        var headers = new Metadata { { "x-keep", "1" }, { CiceroMetadataKeys.Context, new byte[] { 1, 2, 3 } } };
        using (CiceroContext.Use(request))
        {
            _interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary, new CallOptions(headers, now.AddSeconds(10))), later.ContinueUnary);
            _interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary, new CallOptions(headers, now.AddSeconds(1))), sooner.ContinueUnary);
        }

        Assert.Equal(now.AddSeconds(1.5), later.SentOptions.Deadline);
        Assert.Equal(now.AddSeconds(1), sooner.SentOptions.Deadline);
        var sent = later.SentOptions.Headers!;
        Assert.Equal("1", sent.GetValue("x-keep"));
        Assert.Single(sent, e => e.Key == CiceroMetadataKeys.Context);
        Assert.Equal("tenant-a", ReadHeader(sent).Context.Workflow.Value);

        // The caller's own headers are not modified.
        Assert.Equal([1, 2, 3], headers.GetValueBytes(CiceroMetadataKeys.Context));
    }

    [Fact]
    public async Task Unary_OutsideARequest_IsNotStamped_AndOnceAChannelShowsNoCiceroBalancer_PassesThroughUntouched()
    {
        var options = new CallOptions(deadline: _clock.GetUtcNow().UtcDateTime.AddSeconds(5));
        using var none = CiceroContext.Use(null);

        // Until a call ends without a Cicero pick, the interceptor keeps watching (a cold channel's picks may be queued).
        var first = new FakeCall();
        var watched = _interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary, options), first.ContinueUnary);
        Assert.Null(first.SentOptions.Headers);
        Assert.Equal(options.Deadline, first.SentOptions.Deadline);
        first.Succeed("pong", []);
        Assert.Equal("pong", await watched);

        var second = new FakeCall();
        var call = _interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary, options), second.ContinueUnary);

        Assert.Same(second.UnaryCall, call);
        Assert.Null(second.SentOptions.Headers);
        Assert.Equal(options.Deadline, second.SentOptions.Deadline);
    }

    [Fact]
    public async Task Unary_FailedCall_StillJoinsTheProgressTheCalleeReported()
    {
        var request = _runtime.StartRequest("tenant-a");
        var fake = new FakeCall();
        AsyncUnaryCall<string> call;
        using (CiceroContext.Use(request))
        {
            call = _interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary), fake.ContinueUnary);
        }

        fake.Fail(StatusCode.NotFound, Trailers(CalleeProgress, "callee-1"));

        var ex = await Assert.ThrowsAsync<RpcException>(async () => await call);
        Assert.Equal(StatusCode.NotFound, ex.StatusCode);
        Assert.Equal(CalleeProgress, request.Progress.Current);
    }

    [Fact]
    public async Task Unary_DisposedBeforeTheEnd_CountsOnce_AndALateResponseAddsNothing()
    {
        var request = _runtime.StartRequest("tenant-a");
        var fake = new FakeCall();
        AsyncUnaryCall<string> call;
        using (CiceroContext.Use(request))
        {
            call = _interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary), fake.ContinueUnary);
        }

        call.Dispose();
        fake.Succeed("late", Trailers(CalleeProgress, "callee-1"));
        await call;

        Assert.Equal(1, fake.Disposed);
        Assert.Equal(ProgressDelta.Zero, request.Progress.Current);
    }

    [Fact]
    public async Task Unary_InsideParallelCalls_JoinsAsTheMeanOfTheChildren()
    {
        var request = _runtime.StartRequest("tenant-a");
        var fakes = new[] { new FakeCall(), new FakeCall(), new FakeCall() };
        using (CiceroContext.Use(request))
        {
            using (ParallelCalls.Begin())
            {
                var calls = fakes.Select(f => _interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary), f.ContinueUnary).ResponseAsync).ToArray();
                fakes[0].Succeed("a", Trailers(new ProgressDelta(0.004, 1), "leaf-1"));
                fakes[1].Succeed("b", Trailers(new ProgressDelta(0.006, 1), "leaf-2"));
                fakes[2].Succeed("c", Trailers(new ProgressDelta(0.008, 1), "leaf-3"));
                await Task.WhenAll(calls);
                Assert.Equal(ProgressDelta.Zero, request.Progress.Current);
            }
        }

        Assert.Equal(0.006, request.Progress.Current.ServiceTime, 6);
        Assert.Equal(3, request.Progress.Current.Load, 6);
    }

    [Fact]
    public async Task ServerStreaming_JoinsWhenTheStreamEnds()
    {
        var request = _runtime.StartRequest("tenant-a");
        var fake = new FakeCall();
        AsyncServerStreamingCall<string> call;
        using (CiceroContext.Use(request))
        {
            call = _interceptor.AsyncServerStreamingCall("s", FakeCall.Context(FakeCall.ServerStreaming), fake.ContinueServerStreaming);
        }

        Assert.Equal("tenant-a", ReadHeader(fake.SentOptions.Headers).Context.Workflow.Value);
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        Assert.Equal("s", call.ResponseStream.Current);
        var end = call.ResponseStream.MoveNext(CancellationToken.None);
        Assert.Equal(ProgressDelta.Zero, request.Progress.Current);
        fake.Succeed(string.Empty, Trailers(CalleeProgress, "callee-1"));

        Assert.False(await end);
        Assert.Equal(CalleeProgress, request.Progress.Current);
    }

    [Fact]
    public async Task ClientStreamingAndDuplex_StampTheContext_AndJoinAtTheEnd()
    {
        var request = _runtime.StartRequest("tenant-a");
        var clientStreaming = new FakeCall();
        var duplex = new FakeCall();
        AsyncClientStreamingCall<string, string> upload;
        AsyncDuplexStreamingCall<string, string> chat;
        using (CiceroContext.Use(request))
        {
            upload = _interceptor.AsyncClientStreamingCall(FakeCall.Context(FakeCall.ClientStreaming), clientStreaming.ContinueClientStreaming);
            chat = _interceptor.AsyncDuplexStreamingCall(FakeCall.Context(FakeCall.Duplex), duplex.ContinueDuplex);
        }

        Assert.NotNull(clientStreaming.SentOptions.Headers?.Get(CiceroMetadataKeys.Context));
        Assert.NotNull(duplex.SentOptions.Headers?.Get(CiceroMetadataKeys.Context));
        await upload.RequestStream.WriteAsync("x");
        await upload.RequestStream.CompleteAsync();
        clientStreaming.Succeed("done", Trailers(CalleeProgress, "callee-1"));
        Assert.Equal("done", await upload);
        Assert.True(await chat.ResponseStream.MoveNext(CancellationToken.None));
        var end = chat.ResponseStream.MoveNext(CancellationToken.None);
        duplex.Fail(StatusCode.Internal, Trailers(CalleeProgress, "callee-2"));
        await Assert.ThrowsAsync<RpcException>(() => end);

        Assert.Equal(new ProgressDelta(0.5, 4), request.Progress.Current);
    }

    [Fact]
    public void BlockingUnary_InsideARequest_StampsTheContext()
    {
        var request = _runtime.StartRequest("tenant-a");
        CallOptions sent = default;
        string response;
        using (CiceroContext.Use(request))
        {
            response = _interceptor.BlockingUnaryCall("ping", FakeCall.Context(FakeCall.Unary), (r, c) =>
            {
                sent = c.Options;
                return r + "!";
            });
        }

        Assert.Equal("ping!", response);
        Assert.Equal("caller-1", ReadHeader(sent.Headers).Caller);
    }

    [Fact]
    public void CallerIdThatCannotTravel_IsRefusedAtConstruction()
    {
        var error = Assert.Throws<ArgumentException>(() => new CiceroClientInterceptor(_runtime, "svc", "has space"));

        Assert.Contains("printable ASCII", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void LazyCallerId_IsAskedForOnlyWhenACallIsStamped()
    {
        var asked = 0;
        var interceptor = new CiceroClientInterceptor(_runtime, "svc", () =>
        {
            asked++;
            return "http://127.0.0.1:7001";
        });
        using (CiceroContext.Use(null))
        {
            interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary), new FakeCall().ContinueUnary);
        }

        Assert.Equal(0, asked);
        var fake = new FakeCall();
        using (CiceroContext.Use(_runtime.StartRequest("t")))
        {
            interceptor.AsyncUnaryCall("ping", FakeCall.Context(FakeCall.Unary), fake.ContinueUnary);
        }

        Assert.Equal(1, asked);
        Assert.Equal("http://127.0.0.1:7001", ReadHeader(fake.SentOptions.Headers).Caller);
        Assert.Equal("svc", interceptor.DownstreamService);
    }

    private static Metadata Trailers(ProgressDelta progress, string instance) =>
        new() { { CiceroMetadataKeys.Result, TrailerCodec.Encode(progress, 0, TimeSpan.FromMilliseconds(1), 0, Encoding.ASCII.GetBytes(instance)) } };

    private (RequestContext Context, string Caller) ReadHeader(Metadata? headers)
    {
        var value = headers?.GetValueBytes(CiceroMetadataKeys.Context);
        Assert.NotNull(value);
        ContextHeader.Split(value, out var context, out var caller);
        Assert.True(_runtime.Codec.TryRead(context, out var read, out var error), error);
        return (read, Encoding.ASCII.GetString(caller));
    }
}
