// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Primitives;

namespace Cicero.Grpc.Server;

/// <summary>Serves one method over HTTP/2: parses the call, runs the interceptors and handler, writes the status.</summary>
internal sealed class ServerCallHandler<TRequest, TResponse>
{
    // grpc-timeout allows up to 99,999,999 hours, past both the longest timer (uint.MaxValue - 1 ms, about 49.7 days)
    // and DateTimeOffset's range; a longer timeout is as good as none, so it is capped rather than refused.
    private static readonly TimeSpan MaxTimeout = TimeSpan.FromMilliseconds(uint.MaxValue - 1);

    private readonly Method<TRequest, TResponse> _method;
    private readonly GrpcServerOptions _options;
    private readonly TimeProvider _timeProvider;
    private readonly UnaryServerMethod<TRequest, TResponse>? _unary;
    private readonly ClientStreamingServerMethod<TRequest, TResponse>? _clientStreaming;
    private readonly ServerStreamingServerMethod<TRequest, TResponse>? _serverStreaming;
    private readonly DuplexStreamingServerMethod<TRequest, TResponse>? _duplex;

    public ServerCallHandler(
        Method<TRequest, TResponse> method,
        Delegate handler,
        IReadOnlyList<ServerInterceptor> interceptors,
        GrpcServerOptions options,
        TimeProvider timeProvider)
    {
        _method = method;
        _options = options;
        _timeProvider = timeProvider;

        // Chain once at map time, innermost first, so a call allocates no delegates.
        switch (handler)
        {
            case UnaryServerMethod<TRequest, TResponse> unary:
                for (var i = interceptors.Count - 1; i >= 0; i--)
                {
                    var next = unary;
                    var interceptor = interceptors[i];
                    unary = (request, context) => interceptor.UnaryServerHandler(request, context, next);
                }

                _unary = unary;
                break;
            case ClientStreamingServerMethod<TRequest, TResponse> clientStreaming:
                for (var i = interceptors.Count - 1; i >= 0; i--)
                {
                    var next = clientStreaming;
                    var interceptor = interceptors[i];
                    clientStreaming = (requests, context) => interceptor.ClientStreamingServerHandler(requests, context, next);
                }

                _clientStreaming = clientStreaming;
                break;
            case ServerStreamingServerMethod<TRequest, TResponse> serverStreaming:
                for (var i = interceptors.Count - 1; i >= 0; i--)
                {
                    var next = serverStreaming;
                    var interceptor = interceptors[i];
                    serverStreaming = (request, responses, context) => interceptor.ServerStreamingServerHandler(request, responses, context, next);
                }

                _serverStreaming = serverStreaming;
                break;
            case DuplexStreamingServerMethod<TRequest, TResponse> duplex:
                for (var i = interceptors.Count - 1; i >= 0; i--)
                {
                    var next = duplex;
                    var interceptor = interceptors[i];
                    duplex = (requests, responses, context) => interceptor.DuplexStreamingServerHandler(requests, responses, context, next);
                }

                _duplex = duplex;
                break;
            default:
                throw new ArgumentException($"Handler type {handler.GetType().Name} does not serve {method.Type} method {method.FullName}.", nameof(handler));
        }
    }

    public async Task HandleAsync(HttpContext http)
    {
        var response = http.Response;
        if (!GrpcProtocol.IsGrpcContentType(http.Request.ContentType))
        {
            response.StatusCode = StatusCodes.Status415UnsupportedMediaType;
            response.Headers.Append(GrpcProtocol.StatusTrailer, ((int)StatusCode.Internal).ToString(System.Globalization.CultureInfo.InvariantCulture));
            response.Headers.Append(GrpcProtocol.MessageTrailer, "Content-Type must be application/grpc.");
            return;
        }

        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = GrpcProtocol.ContentType;

        ServerCallContext? context = null;
        CancellationTokenSource? deadlineSource = null;
        RpcStatus status;
        try
        {
            var headers = ReadHeaders(http.Request.Headers, out var timeout);
            DateTimeOffset? deadline = null;
            var token = http.RequestAborted;
            if (timeout is { } requested)
            {
                var t = requested > MaxTimeout ? MaxTimeout : requested;
                deadline = _timeProvider.GetUtcNow() + t;
                deadlineSource = CancellationTokenSource.CreateLinkedTokenSource(http.RequestAborted);
                deadlineSource.CancelAfter(t);
                token = deadlineSource.Token;
            }

            context = new ServerCallContext(http, _method.FullName, _method.Type, headers, deadline, token);
            await InvokeAsync(http, context).ConfigureAwait(false);
            status = context.Status;
        }
        catch (RpcException ex)
        {
            status = ex.Status;
            if (context is not null)
            {
                foreach (var entry in ex.Trailers)
                {
                    context.ResponseTrailers.AddRaw(entry);
                }
            }
        }
        catch (OperationCanceledException) when (deadlineSource is { IsCancellationRequested: true } && !http.RequestAborted.IsCancellationRequested)
        {
            status = new RpcStatus(StatusCode.DeadlineExceeded, "Deadline exceeded.");
        }
        catch (OperationCanceledException) when (http.RequestAborted.IsCancellationRequested)
        {
            // The caller is gone: nobody reads the status.
            return;
        }
        catch (Exception ex)
        {
            status = new RpcStatus(StatusCode.Unknown, _options.EnableDetailedErrors
                ? $"Exception was thrown by handler. {ex.GetType().Name}: {ex.Message}"
                : "Exception was thrown by handler.");
        }
        finally
        {
            deadlineSource?.Dispose();
        }

        WriteTrailers(response, status, context?.ResponseTrailersIfAny);
    }

    private static void WriteTrailers(HttpResponse response, RpcStatus status, Metadata? trailers)
    {
        if (trailers is not null)
        {
            foreach (var entry in trailers)
            {
                response.AppendTrailer(entry.Key, entry.WireValue);
            }
        }

        response.AppendTrailer(GrpcProtocol.StatusTrailer, ((int)status.Code).ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (status.Detail.Length > 0)
        {
            response.AppendTrailer(GrpcProtocol.MessageTrailer, GrpcProtocol.EncodeMessage(status.Detail));
        }
    }

    private static Metadata ReadHeaders(IHeaderDictionary source, out TimeSpan? timeout)
    {
        timeout = null;
        Metadata? metadata = null;
        foreach (var (name, values) in source)
        {
            if (string.Equals(name, GrpcProtocol.TimeoutHeader, StringComparison.OrdinalIgnoreCase))
            {
                if (!GrpcProtocol.TryParseTimeout(values.ToString(), out var parsed, out var error))
                {
                    throw new RpcException(new RpcStatus(StatusCode.InvalidArgument, error!));
                }

                timeout = parsed;
                continue;
            }

            if (GrpcProtocol.IsReservedHeader(name))
            {
                continue;
            }

            // Made on the first header that stays: the reserved ones (content-type, te, host, ...) are most of them.
            metadata ??= new Metadata();
            AddHeader(metadata, name, values);
        }

        return metadata ?? new Metadata();
    }

    private static void AddHeader(Metadata metadata, string name, StringValues values)
    {
        var key = name.ToLowerInvariant();
        var binary = key.EndsWith(Metadata.BinarySuffix, StringComparison.Ordinal);
        foreach (var value in values)
        {
            if (value is null)
            {
                continue;
            }

            if (!binary)
            {
                metadata.AddRaw(new MetadataEntry(key, value));
                continue;
            }

            // One HTTP/2 header may carry several base64 values joined by commas.
            var rest = value.AsSpan();
            while (!rest.IsEmpty)
            {
                var comma = rest.IndexOf(',');
                var part = (comma < 0 ? rest : rest[..comma]).Trim();
                rest = comma < 0 ? default : rest[(comma + 1)..];
                if (part.IsEmpty)
                {
                    continue;
                }

                // Checked now, decoded only when read: the common single value is kept as the string Kestrel made.
                var text = part.Length == value.Length ? value : part.ToString();
                if (MetadataEntry.FromReceivedBase64(key, text) is not { } entry)
                {
                    throw new RpcException(new RpcStatus(StatusCode.InvalidArgument, $"Header '{key}' is not valid base64."));
                }

                metadata.AddRaw(entry);
            }
        }
    }

    private async Task InvokeAsync(HttpContext http, ServerCallContext context)
    {
        var maxReceive = _options.MaxReceiveMessageSize;
        var maxSend = _options.MaxSendMessageSize;
        var token = context.CancellationToken;
        switch (_method.Type)
        {
            case MethodType.Unary:
            {
                var request = await ReadSingleAsync(http, maxReceive, token).ConfigureAwait(false);
                var reply = await _unary!(request, context).ConfigureAwait(false);
                await WriteSingleAsync(http, reply, maxSend, context).ConfigureAwait(false);
                break;
            }

            case MethodType.ClientStreaming:
            {
                var requests = new HttpRequestStreamReader<TRequest>(http.Request.BodyReader, _method.RequestMarshaller, maxReceive, token);
                var reply = await _clientStreaming!(requests, context).ConfigureAwait(false);
                await WriteSingleAsync(http, reply, maxSend, context).ConfigureAwait(false);
                break;
            }

            case MethodType.ServerStreaming:
            {
                var request = await ReadSingleAsync(http, maxReceive, token).ConfigureAwait(false);
                var responses = new HttpResponseStreamWriter<TResponse>(http.Response, _method.ResponseMarshaller, maxSend, token);
                await _serverStreaming!(request, responses, context).ConfigureAwait(false);
                break;
            }

            default:
            {
                var requests = new HttpRequestStreamReader<TRequest>(http.Request.BodyReader, _method.RequestMarshaller, maxReceive, token);
                var responses = new HttpResponseStreamWriter<TResponse>(http.Response, _method.ResponseMarshaller, maxSend, token);
                await _duplex!(requests, responses, context).ConfigureAwait(false);
                break;
            }
        }
    }

    private async Task<TRequest> ReadSingleAsync(HttpContext http, int maxReceive, CancellationToken token)
    {
        var (read, request) = await MessageFraming.ReadAsync(http.Request.BodyReader, _method.RequestMarshaller, maxReceive, token).ConfigureAwait(false);
        if (!read)
        {
            throw new RpcException(new RpcStatus(StatusCode.Internal, "The request ended without a message."));
        }

        return request;
    }

    private async Task WriteSingleAsync(HttpContext http, TResponse reply, int maxSend, ServerCallContext context)
    {
        if (context.Status.Code != StatusCode.OK)
        {
            return;
        }

        using var frame = MessageFraming.Serialize(_method.ResponseMarshaller, reply, maxSend);
        await http.Response.BodyWriter.WriteAsync(frame.Complete(), context.CancellationToken).ConfigureAwait(false);
    }
}
