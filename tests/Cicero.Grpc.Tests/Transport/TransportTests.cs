// SPDX-License-Identifier: Apache-2.0

using System.Net;
using System.Net.Http.Headers;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Cicero.Grpc.Client;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;

namespace Cicero.Grpc.Tests.Transport;

public sealed class TransportTests : IAsyncLifetime
{
    private TestHost _host = null!;
    private RpcChannel _channel = null!;
    private CallInvoker _invoker = null!;

    public async Task InitializeAsync()
    {
        _host = await TestHost.StartAsync(_ => { }, app =>
        {
            app.MapGrpcUnary(TestMethods.Unary(), (request, context) =>
            {
                context.ResponseTrailers.Add("echo-bin", [1, 2, 3]);
                context.ResponseTrailers.Add("echo-header", context.RequestHeaders.GetValue("x-tag") ?? "none");
                return Task.FromResult(request + "!");
            });
            app.MapGrpcUnary(TestMethods.Unary("Fail"), (string request, ServerCallContext context) =>
                Task.FromException<string>(new RpcException(new RpcStatus(StatusCode.FailedPrecondition, "no: " + request + " ünïcode %"))));
            app.MapGrpcUnary(TestMethods.Unary("Throw"), (string request, ServerCallContext context) =>
                Task.FromException<string>(new InvalidOperationException("secret internals")));
            app.MapGrpcUnary(TestMethods.Unary("Hang"), async (string request, ServerCallContext context) =>
            {
                await Task.Delay(Timeout.InfiniteTimeSpan, TimeProvider.System, context.CancellationToken);
                return request;
            });
            // What grpc-dotnet sends for an error before any message: the status in the response headers, no body.
            app.MapPost("/test.Echo/TrailersOnly", (HttpContext context) =>
            {
                context.Response.ContentType = "application/grpc";
                context.Response.Headers["grpc-status"] = "9";
                context.Response.Headers["grpc-message"] = "trailers-only";
                return Task.CompletedTask;
            });
            app.MapGrpcUnary(TestMethods.Unary("Deadline"), (string request, ServerCallContext context) =>
                Task.FromResult(context.Deadline is { } d ? "has-deadline" : "none"));
            app.MapGrpcServerStreaming(TestMethods.ServerStreaming(), async (string request, IAsyncStreamWriter<string> responses, ServerCallContext context) =>
            {
                foreach (var part in request.Split(' '))
                {
                    await responses.WriteAsync(part);
                }
            });
            app.MapGrpcClientStreaming(TestMethods.ClientStreaming(), async (IAsyncStreamReader<string> requests, ServerCallContext context) =>
            {
                var parts = new List<string>();
                while (await requests.MoveNext())
                {
                    parts.Add(requests.Current);
                }

                return string.Join("+", parts);
            });
            app.MapGrpcDuplexStreaming(TestMethods.Duplex(), async (IAsyncStreamReader<string> requests, IAsyncStreamWriter<string> responses, ServerCallContext context) =>
            {
                while (await requests.MoveNext())
                {
                    await responses.WriteAsync(requests.Current.ToUpperInvariant());
                }
            });
        });
        _channel = RpcChannel.ForAddress(_host.Address);
        _invoker = _channel.CreateCallInvoker();
    }

    public async Task DisposeAsync()
    {
        _channel.Dispose();
        await _host.DisposeAsync();
    }

    [Fact]
    public async Task Unary_call_round_trips_message_headers_and_trailers()
    {
        var call = _invoker.AsyncUnaryCall(TestMethods.Unary(), new CallOptions(new Metadata().Add("x-tag", "t1")), "hello");
        Assert.Equal("hello!", await call);
        Assert.Equal(StatusCode.OK, call.GetStatus().Code);
        Assert.Equal([1, 2, 3], call.GetTrailers().GetValueBytes("echo-bin"));
        Assert.Equal("t1", call.GetTrailers().GetValue("echo-header"));
    }

    [Fact]
    public async Task Handler_status_reaches_the_client_with_its_message_decoded()
    {
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await _invoker.AsyncUnaryCall(TestMethods.Unary("Fail"), default, "x"));
        Assert.Equal(StatusCode.FailedPrecondition, ex.StatusCode);
        Assert.Equal("no: x ünïcode %", ex.Status.Detail);
    }

    [Fact]
    public async Task Handler_exception_is_unknown_without_leaking_its_message()
    {
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await _invoker.AsyncUnaryCall(TestMethods.Unary("Throw"), default, "x"));
        Assert.Equal(StatusCode.Unknown, ex.StatusCode);
        Assert.DoesNotContain("secret", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Unknown_method_is_unimplemented()
    {
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await _invoker.AsyncUnaryCall(TestMethods.Unary("Nope"), default, "x"));
        Assert.Equal(StatusCode.Unimplemented, ex.StatusCode);
    }

    [Fact]
    public async Task Deadline_is_sent_and_enforced()
    {
        Assert.Equal("has-deadline", await _invoker.AsyncUnaryCall(TestMethods.Unary("Deadline"), new CallOptions(Deadline: DateTimeOffset.UtcNow.AddSeconds(30)), "x"));
        Assert.Equal("none", await _invoker.AsyncUnaryCall(TestMethods.Unary("Deadline"), default, "x"));
        var ex = await Assert.ThrowsAsync<RpcException>(async () =>
            await _invoker.AsyncUnaryCall(TestMethods.Unary("Hang"), new CallOptions(Deadline: DateTimeOffset.UtcNow.AddMilliseconds(200)), "x"));
        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
    }

    [Fact]
    public async Task Cancellation_cancels_the_call()
    {
        using var cts = new CancellationTokenSource();
        var call = _invoker.AsyncUnaryCall(TestMethods.Unary("Hang"), new CallOptions(CancellationToken: cts.Token), "x");
        await cts.CancelAsync();
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await call);
        Assert.Equal(StatusCode.Cancelled, ex.StatusCode);
    }

    [Fact]
    public async Task Server_streaming_delivers_every_message_then_ok()
    {
        using var call = _invoker.AsyncServerStreamingCall(TestMethods.ServerStreaming(), default, "a b c d");
        var received = new List<string>();
        while (await call.ResponseStream.MoveNext())
        {
            received.Add(call.ResponseStream.Current);
        }

        Assert.Equal(["a", "b", "c", "d"], received);
        Assert.Equal(StatusCode.OK, call.GetStatus().Code);
    }

    [Fact]
    public async Task Client_streaming_joins_every_message()
    {
        using var call = _invoker.AsyncClientStreamingCall(TestMethods.ClientStreaming(), default);
        foreach (var part in new[] { "x", "y", "z" })
        {
            await call.RequestStream.WriteAsync(part);
        }

        await call.RequestStream.CompleteAsync();
        Assert.Equal("x+y+z", await call);
    }

    [Fact]
    public async Task Duplex_streaming_answers_each_message_in_turn()
    {
        using var call = _invoker.AsyncDuplexStreamingCall(TestMethods.Duplex(), default);
        foreach (var part in new[] { "one", "two" })
        {
            await call.RequestStream.WriteAsync(part);
            Assert.True(await call.ResponseStream.MoveNext());
            Assert.Equal(part.ToUpperInvariant(), call.ResponseStream.Current);
        }

        await call.RequestStream.CompleteAsync();
        Assert.False(await call.ResponseStream.MoveNext());
        Assert.Equal(StatusCode.OK, call.GetStatus().Code);
    }

    [Fact]
    public async Task Unreachable_server_is_unavailable()
    {
        using var listener = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        using var channel = RpcChannel.ForAddress($"http://127.0.0.1:{port}");
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await channel.CreateCallInvoker().AsyncUnaryCall(TestMethods.Unary(), default, "x"));
        Assert.Equal(StatusCode.Unavailable, ex.StatusCode);
    }

    [Fact]
    public async Task Malformed_timeout_header_is_invalid_argument()
    {
        using var http = new HttpClient();
        using var request = RawRequest("/test.Echo/Echo");
        request.Headers.TryAddWithoutValidation("grpc-timeout", "12x");
        using var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead);
        Assert.Equal("3", Trailer(response, "grpc-status"));
        Assert.Contains("unknown unit", Trailer(response, "grpc-message"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Oversized_and_truncated_frames_are_rejected_with_status()
    {
        using var http = new HttpClient();
        using var oversized = RawRequest("/test.Echo/Echo", [0, 0x7F, 0xFF, 0xFF, 0xFF]);
        using var response = await http.SendAsync(oversized);
        Assert.Equal(((int)StatusCode.ResourceExhausted).ToString(System.Globalization.CultureInfo.InvariantCulture), Trailer(response, "grpc-status"));

        using var truncated = RawRequest("/test.Echo/Echo", [0, 0, 0, 0, 10, 1, 2]);
        using var response2 = await http.SendAsync(truncated);
        Assert.Equal(((int)StatusCode.Internal).ToString(System.Globalization.CultureInfo.InvariantCulture), Trailer(response2, "grpc-status"));
    }

    [Fact]
    public async Task Calls_that_are_never_disposed_release_their_http_response_once_read_to_the_end()
    {
        // HttpClient's response stream has a finalizer: an undisposed one keeps its call's objects alive through a
        // collection, so the transport must let go of the response itself when the body is done.
        var responses = new RecordingHandler();
        using var channel = RpcChannel.ForAddress(_host.Address, new RpcChannelOptions { HttpHandler = responses });
        var invoker = channel.CreateCallInvoker();

        var unary = invoker.AsyncUnaryCall(TestMethods.Unary(), default, "hi");
        Assert.Equal("hi!", await unary.ResponseAsync);
        var streaming = invoker.AsyncServerStreamingCall(TestMethods.ServerStreaming(), default, "a b");
        var parts = new List<string>();
        while (await streaming.ResponseStream.MoveNext())
        {
            parts.Add(streaming.ResponseStream.Current);
        }

        Assert.Equal(["a", "b"], parts);
        Assert.Equal([1, 2, 3], unary.GetTrailers().GetValueBytes("echo-bin"));

        // A failed call, and a trailers-only response (no body at all), are released as well.
        var failed = invoker.AsyncUnaryCall(TestMethods.Unary("Fail"), default, "x");
        Assert.Equal(StatusCode.FailedPrecondition, (await Assert.ThrowsAsync<RpcException>(() => failed.ResponseAsync)).StatusCode);
        var trailersOnly = invoker.AsyncUnaryCall(TestMethods.Unary("TrailersOnly"), default, "x");
        var error = await Assert.ThrowsAsync<RpcException>(() => trailersOnly.ResponseAsync);
        Assert.Equal(StatusCode.FailedPrecondition, error.StatusCode);
        Assert.Equal("trailers-only", error.Status.Detail);
        Assert.Equal(4, responses.Responses.Count);
        foreach (var response in responses.Responses)
        {
            await Assert.ThrowsAsync<ObjectDisposedException>(() => response.Content.ReadAsStreamAsync());
        }
    }

    private HttpRequestMessage RawRequest(string path, byte[]? body = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, new Uri(_host.Address, path))
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new ByteArrayContent(body ?? [0, 0, 0, 0, 1, (byte)'a']),
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/grpc");
        return request;
    }

    private static string Trailer(HttpResponseMessage response, string name) =>
        response.TrailingHeaders.TryGetValues(name, out var values) ? values.First()
        : response.Headers.TryGetValues(name, out var headerValues) ? headerValues.First()
        : "(missing)";

    private sealed class RecordingHandler() : DelegatingHandler(new SocketsHttpHandler())
    {
        public System.Collections.Concurrent.ConcurrentQueue<HttpResponseMessage> Responses { get; } = new();

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            var response = await base.SendAsync(request, cancellationToken);
            Responses.Enqueue(response);
            return response;
        }
    }
}
