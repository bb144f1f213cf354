// SPDX-License-Identifier: Apache-2.0

using Grpc.Core;
using Grpc.Core.Interceptors;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>
/// The far side of a client interceptor: a continuation that records what the interceptor sent and hands back a call
/// the test ends when it likes, with the status and trailers a transport would report.
/// </summary>
internal sealed class FakeCall
{
    public static readonly Method<string, string> Unary = new(MethodType.Unary, "cicero.test.Probe", "Work", Marshallers.StringMarshaller, Marshallers.StringMarshaller);
    public static readonly Method<string, string> ServerStreaming = new(MethodType.ServerStreaming, "cicero.test.Probe", "Split", Marshallers.StringMarshaller, Marshallers.StringMarshaller);
    public static readonly Method<string, string> ClientStreaming = new(MethodType.ClientStreaming, "cicero.test.Probe", "Join", Marshallers.StringMarshaller, Marshallers.StringMarshaller);
    public static readonly Method<string, string> Duplex = new(MethodType.DuplexStreaming, "cicero.test.Probe", "Echo", Marshallers.StringMarshaller, Marshallers.StringMarshaller);

    private readonly TaskCompletionSource<string> _response = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private Status? _status;
    private Metadata? _trailers;

    public CallOptions SentOptions { get; private set; }

    public int Disposed { get; private set; }

    public AsyncUnaryCall<string>? UnaryCall { get; private set; }

    public static ClientInterceptorContext<string, string> Context(Method<string, string> method, CallOptions options = default) => new(method, null, options);

    public AsyncUnaryCall<string> ContinueUnary(string request, ClientInterceptorContext<string, string> context)
    {
        SentOptions = context.Options;
        UnaryCall = new AsyncUnaryCall<string>(_response.Task, Task.FromResult(new Metadata()), GetStatus, GetTrailers, () => Disposed++);
        return UnaryCall;
    }

    public AsyncServerStreamingCall<string> ContinueServerStreaming(string request, ClientInterceptorContext<string, string> context)
    {
        SentOptions = context.Options;
        return new AsyncServerStreamingCall<string>(new Reader(this, [request, request]), Task.FromResult(new Metadata()), GetStatus, GetTrailers, () => Disposed++);
    }

    public AsyncClientStreamingCall<string, string> ContinueClientStreaming(ClientInterceptorContext<string, string> context)
    {
        SentOptions = context.Options;
        return new AsyncClientStreamingCall<string, string>(new Writer(), _response.Task, Task.FromResult(new Metadata()), GetStatus, GetTrailers, () => Disposed++);
    }

    public AsyncDuplexStreamingCall<string, string> ContinueDuplex(ClientInterceptorContext<string, string> context)
    {
        SentOptions = context.Options;
        return new AsyncDuplexStreamingCall<string, string>(new Writer(), new Reader(this, ["d"]), Task.FromResult(new Metadata()), GetStatus, GetTrailers, () => Disposed++);
    }

    /// <summary>Ends the call as grpc-dotnet does: status and trailers are known before the response is seen.</summary>
    public void Succeed(string response, Metadata trailers)
    {
        _trailers = trailers;
        _status = Status.DefaultSuccess;
        _response.TrySetResult(response);
    }

    /// <summary>Ends the call with an error status, the trailers travelling on the exception too.</summary>
    public void Fail(StatusCode code, Metadata trailers)
    {
        _trailers = trailers;
        _status = new Status(code, "failed by the test");
        _response.TrySetException(new RpcException(_status.Value, trailers));
    }

    private Status GetStatus() => _status ?? throw new InvalidOperationException("Unable to get the status because the call is not complete.");

    private Metadata GetTrailers() => _trailers ?? throw new InvalidOperationException("Can't get the call trailers because the call has not completed successfully.");

    /// <summary>A response stream whose end waits for the test to end the call.</summary>
    private sealed class Reader(FakeCall owner, string[] messages) : IAsyncStreamReader<string>
    {
        private int _next = -1;

        public string Current => messages[_next];

        public async Task<bool> MoveNext(CancellationToken cancellationToken)
        {
            if (++_next < messages.Length)
            {
                return true;
            }

            await owner._response.Task;
            return false;
        }
    }

    private sealed class Writer : IClientStreamWriter<string>
    {
        public WriteOptions? WriteOptions { get; set; }

        public Task CompleteAsync() => Task.CompletedTask;

        public Task WriteAsync(string message) => Task.CompletedTask;
    }
}
