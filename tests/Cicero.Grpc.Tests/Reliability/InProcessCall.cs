// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.IO.Pipelines;
using Cicero.Grpc.Protocol;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Primitives;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>What a client sends: headers and body bytes as they would reach Kestrel's request, before any parsing.</summary>
internal sealed class InProcessRequest
{
    public string Path { get; init; } = "/";

    public string? ContentType { get; init; } = GrpcProtocol.ContentType;

    public List<KeyValuePair<string, StringValues>> Headers { get; } = [];

    public byte[] Body { get; init; } = [];

    /// <summary>Gets a value indicating whether the client never ends its request stream (a stalled or slow client).</summary>
    public bool LeaveBodyOpen { get; init; }

    /// <summary>Gets a value indicating whether the client goes away if the call is still running once the body is sent.</summary>
    public bool AbortIfPending { get; init; }

    public int HeaderBytes
    {
        get
        {
            var total = ContentType?.Length ?? 0;
            foreach (var (name, values) in Headers)
            {
                total += name.Length;
                foreach (var value in values)
                {
                    total += value?.Length ?? 0;
                }
            }

            return total;
        }
    }
}

/// <summary>How a call ended, as the client would see it.</summary>
internal sealed record CallOutcome(
    int HttpStatus,
    StatusCode? Status,
    string? Message,
    IHeaderDictionary Trailers,
    byte[] ResponseBody,
    bool Aborted,
    bool CompletedSynchronously,
    long AllocatedBytes)
{
    public string? Trailer(string name) => Trailers.TryGetValue(name, out var values) ? values.ToString() : null;
}

/// <summary>
/// Runs one call through a <see cref="Server.ServerCallHandler{TRequest,TResponse}"/> on a <see cref="DefaultHttpContext"/>:
/// the body arrives through a pipe, trailers through a response-trailers feature (so <c>AppendTrailer</c> works as on
/// Kestrel), the response body into memory.
/// </summary>
internal static class InProcessCall
{
    /// <summary>Runs the call; a call still running after <paramref name="watchdog"/> is reported as a hang (<see cref="TimeoutException"/>).</summary>
    /// <remarks>
    /// <see cref="CallOutcome.AllocatedBytes"/> counts what the handler allocated on this thread until it first
    /// returned; it covers the whole call when <see cref="CallOutcome.CompletedSynchronously"/> is true.
    /// </remarks>
    public static async Task<CallOutcome> RunAsync(Func<HttpContext, Task> handle, InProcessRequest request, TimeSpan watchdog)
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0, useSynchronizationContext: false));
        pipe.Writer.Write(request.Body);
        await pipe.Writer.FlushAsync();
        if (!request.LeaveBodyOpen)
        {
            await pipe.Writer.CompleteAsync();
        }

        var http = new DefaultHttpContext();
        http.Request.Method = HttpMethods.Post;
        http.Request.Protocol = "HTTP/2";
        http.Request.Path = request.Path;
        if (request.ContentType is not null)
        {
            http.Request.ContentType = request.ContentType;
        }

        foreach (var (name, values) in request.Headers)
        {
            http.Request.Headers.Append(name, values);
        }

        http.Features.Set<IRequestBodyPipeFeature>(new RequestBodyPipe(pipe.Reader));
        var responseBody = new MemoryStream();
        http.Response.Body = responseBody;
        var trailers = new ResponseTrailers();
        http.Features.Set<IHttpResponseTrailersFeature>(trailers);
        using var aborted = new CancellationTokenSource();
        http.RequestAborted = aborted.Token;

        var before = GC.GetAllocatedBytesForCurrentThread();
        var task = handle(http);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        var synchronous = task.IsCompleted;
        if (!synchronous && request.AbortIfPending)
        {
            await aborted.CancelAsync();
        }

        await task.WaitAsync(watchdog, TimeProvider.System);
        await pipe.Reader.CompleteAsync();
        if (request.LeaveBodyOpen)
        {
            await pipe.Writer.CompleteAsync();
        }

        var status = Read(trailers.Trailers, http.Response.Headers, GrpcProtocol.StatusTrailer);
        StatusCode? code = status is null ? null : GrpcProtocol.TryParseStatus(status, out var parsed) ? parsed : throw new InvalidOperationException($"Unparsable grpc-status '{status}'.");
        var message = Read(trailers.Trailers, http.Response.Headers, GrpcProtocol.MessageTrailer);
        return new CallOutcome(
            http.Response.StatusCode,
            code,
            message is null ? null : GrpcProtocol.DecodeMessage(message),
            trailers.Trailers,
            responseBody.ToArray(),
            aborted.IsCancellationRequested,
            synchronous,
            allocated);
    }

    // A trailers-only answer (the 415 path) puts the status in the headers.
    private static string? Read(IHeaderDictionary trailers, IHeaderDictionary headers, string name) =>
        trailers.TryGetValue(name, out var value) ? value.ToString()
        : headers.TryGetValue(name, out value) ? value.ToString()
        : null;

    private sealed class RequestBodyPipe(PipeReader reader) : IRequestBodyPipeFeature
    {
        public PipeReader Reader { get; } = reader;
    }

    private sealed class ResponseTrailers : IHttpResponseTrailersFeature
    {
        public IHeaderDictionary Trailers { get; set; } = new HeaderDictionary();
    }
}
