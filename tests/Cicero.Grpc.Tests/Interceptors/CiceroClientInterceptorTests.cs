// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Text;
using Cicero.Context;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Protocol;
using Cicero.Runtime;
using Xunit;

namespace Cicero.Grpc.Tests.Interceptors;

/// <summary>
/// The client interceptor over transport doubles: with Cicero's transport it is told of the call's end and returns
/// the transport's call untouched; behind a transport that does not know it, it wraps the response instead. Either way
/// the callee's progress joins the caller's exactly once.
/// </summary>
public sealed class CiceroClientInterceptorTests : IDisposable
{
    private static readonly Marshaller<string> Utf8 = new(
        static (value, writer) => writer.Write(Encoding.UTF8.GetBytes(value)),
        static sequence => Encoding.UTF8.GetString(sequence.ToArray()));

    private static readonly Method<string, string> Echo = new(MethodType.Unary, "svc", "Echo", Utf8, Utf8);
    private static readonly ProgressDelta CalleeProgress = new(0.25, 2);

    private readonly CiceroRuntime _runtime = new();
    private readonly CiceroClientInterceptor _interceptor;

    public CiceroClientInterceptorTests() => _interceptor = new CiceroClientInterceptor(_runtime, "downstream", "caller-1");

    public void Dispose() => _runtime.Dispose();

    [Fact]
    public async Task TransportThatReportsCompletion_GetsNoWrapper_AndProgressJoinsOnce()
    {
        var request = _runtime.StartRequest("tenant-a");
        var transport = new FakeTransport(reportsCompletion: true);
        AsyncUnaryCall<string> call;
        using (CiceroContext.Use(request))
        {
            call = _interceptor.AsyncUnaryCall("ping", new ClientInterceptorContext<string, string>(Echo, default), transport.Continue);
        }

        Assert.Same(transport.Call, call);
        Assert.NotNull(transport.SentOptions.Headers?.Get(CiceroMetadataKeys.Context));
        transport.Complete();
        transport.Complete();
        Assert.Equal("ping", await call);
        Assert.Equal(CalleeProgress, request.Progress.Current);
    }

    [Fact]
    public async Task TransportThatDoesNotKnowTheObserver_IsWrapped_AndProgressJoinsWhenTheResponseArrives()
    {
        var request = _runtime.StartRequest("tenant-a");
        var transport = new FakeTransport(reportsCompletion: false);
        AsyncUnaryCall<string> call;
        using (CiceroContext.Use(request))
        {
            call = _interceptor.AsyncUnaryCall("ping", new ClientInterceptorContext<string, string>(Echo, default), transport.Continue);
        }

        Assert.NotSame(transport.Call, call);
        Assert.Equal(default, request.Progress.Current);
        transport.Complete();
        Assert.Equal("ping", await call);
        Assert.Equal(CalleeProgress, request.Progress.Current);
    }

    [Fact]
    public void OutsideARequest_PassesTheCallThroughUnstamped()
    {
        var transport = new FakeTransport(reportsCompletion: true);

        var call = _interceptor.AsyncUnaryCall("ping", new ClientInterceptorContext<string, string>(Echo, default), transport.Continue);

        Assert.Same(transport.Call, call);
        Assert.Null(transport.SentOptions.Headers);
        Assert.Null(transport.SentOptions.CompletionObserver);
    }

    private sealed class FakeTransport(bool reportsCompletion)
    {
        private readonly TaskCompletionSource<string> _response = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly Metadata _trailers = new();
        private string _request = string.Empty;

        public AsyncUnaryCall<string> Call { get; private set; } = null!;

        public CallOptions SentOptions { get; private set; }

        public AsyncUnaryCall<string> Continue(string request, ClientInterceptorContext<string, string> context)
        {
            _request = request;
            SentOptions = context.Options;
            if (reportsCompletion)
            {
                context.Options.CompletionObserver?.Attach();
            }

            Call = new AsyncUnaryCall<string>(_response.Task, Task.FromResult(new Metadata()), static () => RpcStatus.Ok, () => _trailers, static () => { });
            return Call;
        }

        /// <summary>Ends the call as the real transport does: trailers and observer first, then the response.</summary>
        public void Complete()
        {
            if (_trailers.Count == 0)
            {
                _trailers.Add(CiceroMetadataKeys.Result, TrailerCodec.Encode(CalleeProgress, 0, TimeSpan.FromMilliseconds(1), 0, "callee-1"u8));
            }

            if (reportsCompletion)
            {
                SentOptions.CompletionObserver?.OnCallCompleted(RpcStatus.Ok, _trailers);
            }

            _response.TrySetResult(_request);
        }
    }
}
