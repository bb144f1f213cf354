// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.IO.Pipelines;
using System.Net.Http.Headers;
using Cicero.Grpc.LoadBalancing;
using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>
/// One client call over HTTP/2: picks a server, sends headers and messages, reads messages and the status, and reports
/// the outcome to the load balancer exactly once.
/// </summary>
internal sealed class GrpcCall<TRequest, TResponse> : IDisposable
{
    private readonly RpcChannel _channel;
    private readonly Method<TRequest, TResponse> _method;
    private readonly CallOptions _options;
    private readonly CancellationTokenSource _cts;
    private readonly CancellationTokenSource? _deadlineCts;
    private readonly TaskCompletionSource<Metadata> _headers = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly long _started;
    private readonly CancellationToken _token;
    private PushStreamContent? _pushContent;
    private Task<HttpResponseMessage>? _sendTask;
    private HttpResponseMessage? _response;
    private PipeReader? _reader;
    private LoadBalancerPick? _pick;
    private RpcStatus? _status;
    private Metadata? _trailers;
    private int _finished;

    public GrpcCall(RpcChannel channel, Method<TRequest, TResponse> method, CallOptions options)
    {
        _channel = channel;
        _method = method;
        _options = options;
        var time = channel.Options.TimeProvider;
        _started = time.GetTimestamp();
        _cts = CancellationTokenSource.CreateLinkedTokenSource(options.CancellationToken);
        if (options.Deadline is { } deadline)
        {
            var remaining = deadline - time.GetUtcNow();
            _deadlineCts = new CancellationTokenSource(remaining > TimeSpan.Zero ? remaining : TimeSpan.Zero, time);
            _deadlineCts.Token.UnsafeRegister(static s => ((GrpcCall<TRequest, TResponse>)s!).CancelQuietly(), this);
        }

        _token = _cts.Token;
        options.CompletionObserver?.Attach();

        ResponseStream = new ResponseStreamReader(this);
        RequestStream = new RequestStreamWriter(this);
    }

    public Task<Metadata> ResponseHeadersAsync => _headers.Task;

    public IAsyncStreamReader<TResponse> ResponseStream { get; }

    public IClientStreamWriter<TRequest> RequestStream { get; }

    private CancellationToken Token => _token;

    public RpcStatus GetStatus() => _status ?? throw new InvalidOperationException("The call has not ended: its status is not known yet.");

    public Metadata GetTrailers() => _trailers ?? throw new InvalidOperationException("The call has not ended: its trailers are not known yet.");

    public async Task<TResponse> RunUnaryAsync(TRequest request)
    {
        try
        {
            await SendAsync(CreateContent(request)).ConfigureAwait(false);
            return await ReadSingleResponseAsync().ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            throw Fail(ex);
        }
    }

    public async Task<TResponse> RunClientStreamingAsync()
    {
        try
        {
            _pushContent = new PushStreamContent();
            _sendTask = SendAsync(_pushContent);
            await _sendTask.ConfigureAwait(false);
            return await ReadSingleResponseAsync().ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            throw Fail(ex);
        }
    }

    public void StartServerStreaming(TRequest request)
    {
        try
        {
            _sendTask = SendAsync(CreateContent(request));
        }
        catch (Exception ex)
        {
            _sendTask = Task.FromException<HttpResponseMessage>(Fail(ex));
        }
    }

    public void StartDuplexStreaming()
    {
        _pushContent = new PushStreamContent();
        _sendTask = SendAsync(_pushContent);
    }

    public void Dispose()
    {
        if (Volatile.Read(ref _finished) == 0)
        {
            _cts.Cancel();
            Finish(new RpcStatus(StatusCode.Cancelled, "The call was disposed before it ended."), null);
        }

        _pushContent?.Abort();
        _response?.Dispose();
        _deadlineCts?.Dispose();
    }

    /// <summary>
    /// The request body of a single-message call. It owns a copy of the frame: HTTP/2 may still be sending the body
    /// after the response headers arrived, so a pooled buffer could not be returned when <c>SendAsync</c> completes.
    /// </summary>
    private ByteArrayContent CreateContent(TRequest request)
    {
        using var frame = MessageFraming.Serialize(_method.RequestMarshaller, request, _channel.Options.MaxSendMessageSize);
        var content = new ByteArrayContent(frame.Complete().ToArray());
        content.Headers.ContentType = new MediaTypeHeaderValue(GrpcProtocol.ContentType);
        return content;
    }

    private async Task<HttpResponseMessage> SendAsync(HttpContent content)
    {
        _pick = await _channel.LoadBalancer.PickAsync(Token).ConfigureAwait(false);
        var request = new HttpRequestMessage(HttpMethod.Post, new Uri(_pick.Value.Address, _method.FullName))
        {
            Version = System.Net.HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = content,
        };
        request.Headers.TE.Add(new TransferCodingWithQualityHeaderValue("trailers"));
        if (_options.Deadline is { } deadline)
        {
            var remaining = deadline - _channel.Options.TimeProvider.GetUtcNow();
            if (remaining <= TimeSpan.Zero)
            {
                throw new RpcException(new RpcStatus(StatusCode.DeadlineExceeded, "The deadline passed before the call was sent."));
            }

            request.Headers.TryAddWithoutValidation(GrpcProtocol.TimeoutHeader, GrpcProtocol.FormatTimeout(remaining));
        }

        if (_options.Headers is { } headers)
        {
            foreach (var entry in headers)
            {
                request.Headers.TryAddWithoutValidation(entry.Key, entry.WireValue);
            }
        }

        HttpResponseMessage response;
        try
        {
            response = await _channel.Http.SendAsync(request, Token).ConfigureAwait(false);
        }
        catch (HttpRequestException ex)
        {
            throw new RpcException(new RpcStatus(StatusCode.Unavailable, $"Error connecting to {_pick.Value.Address}: {ex.Message}"), null, ex);
        }

        _response = response;
        _headers.TrySetResult(ToMetadata(response.Headers));
        if (TryGetTrailersOnlyStatus(response, out var status))
        {
            Finish(status, ToMetadata(response.Headers));

            // Nothing follows a trailers-only response (a rejection, say): let its stream go now, as at a body's end.
            response.Dispose();
            if (status.Code != StatusCode.OK)
            {
                throw new RpcException(status, _trailers);
            }
        }

        return response;
    }

    private async Task<TResponse> ReadSingleResponseAsync()
    {
        var (read, message) = await ReadNextAsync().ConfigureAwait(false);
        if (read)
        {
            // Read through to the end of the body so the trailers (and status) are there.
            var (extra, _) = await ReadNextAsync().ConfigureAwait(false);
            if (extra)
            {
                throw new RpcException(new RpcStatus(StatusCode.Internal, "The server sent more than one response message to a unary call."));
            }
        }

        var status = GetStatus();
        if (status.Code != StatusCode.OK)
        {
            throw new RpcException(status, _trailers);
        }

        return read ? message : throw new RpcException(new RpcStatus(StatusCode.Internal, "The call ended OK without a response message."));
    }

    /// <summary>Reads the next response message; at the end of the body, records the status from the trailers.</summary>
    private async Task<(bool Read, TResponse Message)> ReadNextAsync()
    {
        if (_status is not null)
        {
            return (false, default!);
        }

        var response = _response!;
        if (_reader is null)
        {
            var stream = await response.Content.ReadAsStreamAsync(Token).ConfigureAwait(false);
            _reader = PipeReader.Create(stream);
        }

        var (read, message) = await MessageFraming.ReadAsync(_reader, _method.ResponseMarshaller, _channel.Options.MaxReceiveMessageSize, Token).ConfigureAwait(false);
        if (read)
        {
            return (true, message);
        }

        var trailers = ToMetadata(response.TrailingHeaders);
        var statusValue = GetHeader(response.TrailingHeaders, GrpcProtocol.StatusTrailer);
        RpcStatus status;
        if (statusValue is null)
        {
            status = new RpcStatus(StatusCode.Internal, "The response ended without a grpc-status trailer.");
        }
        else if (!GrpcProtocol.TryParseStatus(statusValue, out var code))
        {
            status = new RpcStatus(StatusCode.Internal, $"The grpc-status trailer '{statusValue}' is not a status code.");
        }
        else
        {
            status = new RpcStatus(code, GrpcProtocol.DecodeMessage(GetHeader(response.TrailingHeaders, GrpcProtocol.MessageTrailer)));
        }

        Finish(status, trailers);

        // The body has been read to its end. Completing the reader returns its pooled buffers and disposes HttpClient's
        // response stream, which has a finalizer: left to a call that is never disposed (the usual case for unary
        // calls), every such stream kept its whole call's objects alive through one more collection, and every
        // collection became a gen1 one.
        try
        {
            await _reader.CompleteAsync().ConfigureAwait(false);
            response.Dispose();
        }
        catch (Exception ex) when (ex is IOException or HttpRequestException or ObjectDisposedException or OperationCanceledException)
        {
            // The call already has its status; releasing the response is housekeeping and must not fail it.
        }

        return (false, default!);
    }

    private static bool TryGetTrailersOnlyStatus(HttpResponseMessage response, out RpcStatus status)
    {
        var statusValue = GetHeader(response.Headers, GrpcProtocol.StatusTrailer);
        if (statusValue is not null)
        {
            status = GrpcProtocol.TryParseStatus(statusValue, out var code)
                ? new RpcStatus(code, GrpcProtocol.DecodeMessage(GetHeader(response.Headers, GrpcProtocol.MessageTrailer)))
                : new RpcStatus(StatusCode.Internal, $"The grpc-status header '{statusValue}' is not a status code.");
            return true;
        }

        if (response.StatusCode != System.Net.HttpStatusCode.OK)
        {
            status = new RpcStatus(
                GrpcProtocol.FromHttpStatus((int)response.StatusCode),
                string.Create(CultureInfo.InvariantCulture, $"Bad gRPC response. HTTP status code: {(int)response.StatusCode}."));
            return true;
        }

        var contentType = response.Content.Headers.ContentType?.MediaType;
        if (!GrpcProtocol.IsGrpcContentType(contentType))
        {
            status = new RpcStatus(StatusCode.Internal, $"Bad gRPC response. Invalid content-type value: {contentType ?? "(none)"}.");
            return true;
        }

        status = default;
        return false;
    }

    private RpcException Fail(Exception ex)
    {
        RpcStatus status;
        if (ex is RpcException rpc)
        {
            if (_status is null || _status.Value.Code == StatusCode.OK)
            {
                Finish(rpc.Status, _trailers ?? rpc.Trailers);
            }

            _pushContent?.Abort();
            return rpc;
        }

        if (ex is OperationCanceledException && _deadlineCts is { IsCancellationRequested: true })
        {
            status = new RpcStatus(StatusCode.DeadlineExceeded, "Deadline exceeded.");
        }
        else if (ex is OperationCanceledException)
        {
            status = new RpcStatus(StatusCode.Cancelled, "The call was cancelled.");
        }
        else if (ex is HttpRequestException or IOException)
        {
            status = new RpcStatus(StatusCode.Unavailable, $"Error reading the response: {ex.Message}");
        }
        else
        {
            status = new RpcStatus(StatusCode.Internal, $"{ex.GetType().Name}: {ex.Message}");
        }

        Finish(status, _trailers);
        _pushContent?.Abort();
        return new RpcException(_status!.Value, _trailers, ex);
    }

    private void Finish(RpcStatus status, Metadata? trailers)
    {
        if (Interlocked.Exchange(ref _finished, 1) != 0)
        {
            return;
        }

        _status = status;
        _trailers = trailers ?? new Metadata();
        _headers.TrySetResult(new Metadata());
        if (_pick is { } pick)
        {
            var elapsed = _channel.Options.TimeProvider.GetElapsedTime(_started);
            _channel.LoadBalancer.Complete(pick, new CallCompletion(status, elapsed, trailers));
        }

        _options.CompletionObserver?.OnCallCompleted(status, _trailers);

        // The call's timers and registrations go now, so calls that are never disposed leak nothing.
        _deadlineCts?.Dispose();
        _cts.Dispose();
    }

    // The non-validated views read the values as they arrived: no parsing into HttpClient's typed header objects and
    // no per-entry allocations, which the validating enumerator makes for every header of every response.
    private static string? GetHeader(HttpHeaders headers, string name)
    {
        if (!headers.NonValidated.TryGetValues(name, out var values))
        {
            return null;
        }

        foreach (var value in values)
        {
            return value;
        }

        return null;
    }

    private static Metadata ToMetadata(HttpHeaders headers)
    {
        var view = headers.NonValidated;
        Metadata? metadata = null;
        foreach (var (name, values) in view)
        {
            if (GrpcProtocol.IsReservedHeader(name))
            {
                continue;
            }

            // Made on the first entry that stays (most responses carry none, or only Cicero's).
            metadata ??= new Metadata();

            var key = name.ToLowerInvariant();
            var binary = key.EndsWith(Metadata.BinarySuffix, StringComparison.Ordinal);
            foreach (var value in values)
            {
                if (!binary)
                {
                    metadata.AddRaw(new MetadataEntry(key, value));
                }
                else if (MetadataEntry.FromReceivedBase64(key, value) is { } entry)
                {
                    metadata.AddRaw(entry);
                }
            }
        }

        return metadata ?? new Metadata();
    }

    private sealed class ResponseStreamReader(GrpcCall<TRequest, TResponse> call) : IAsyncStreamReader<TResponse>
    {
        public TResponse Current { get; private set; } = default!;

        public async Task<bool> MoveNext(CancellationToken cancellationToken = default)
        {
            using var registration = cancellationToken.UnsafeRegister(static s => ((GrpcCall<TRequest, TResponse>)s!).CancelQuietly(), call);
            try
            {
                await call._sendTask!.ConfigureAwait(false);
                var (read, message) = await call.ReadNextAsync().ConfigureAwait(false);
                if (read)
                {
                    Current = message;
                    return true;
                }

                var status = call.GetStatus();
                return status.Code == StatusCode.OK ? false : throw new RpcException(status, call._trailers);
            }
            catch (Exception ex) when (ex is not RpcException || call._status is null)
            {
                throw call.Fail(ex);
            }
        }
    }

    private void CancelQuietly()
    {
        try
        {
            _cts.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The call already ended.
        }
    }

    private sealed class RequestStreamWriter(GrpcCall<TRequest, TResponse> call) : IClientStreamWriter<TRequest>
    {
        private bool _completed;

        public async Task WriteAsync(TRequest message, CancellationToken cancellationToken = default)
        {
            if (_completed)
            {
                throw new InvalidOperationException("The request stream is already complete.");
            }

            if (call._status is { } status)
            {
                throw new RpcException(status, call._trailers);
            }

            var content = call._pushContent ?? throw new InvalidOperationException("This call has no request stream.");
            using var frame = MessageFraming.Serialize(call._method.RequestMarshaller, message, call._channel.Options.MaxSendMessageSize);
            using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, call.Token);
            var stream = await content.StreamAsync.WaitAsync(linked.Token).ConfigureAwait(false);
            await stream.WriteAsync(frame.Complete(), linked.Token).ConfigureAwait(false);
            await stream.FlushAsync(linked.Token).ConfigureAwait(false);
        }

        public Task CompleteAsync()
        {
            _completed = true;
            (call._pushContent ?? throw new InvalidOperationException("This call has no request stream.")).Complete();
            return Task.CompletedTask;
        }
    }
}
