// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Grpc.Protocol;
using Cicero.Runtime;

namespace Cicero.Grpc.Client;

/// <summary>
/// Cicero's client side for calls to one downstream service: stamps the request context and this process's id on the
/// call, caps the gRPC deadline at the context's remaining budget, and when the call ends counts it towards the
/// workflow's amplification and joins the callee's progress b into the caller's (sequentially, or in parallel inside
/// <see cref="ParallelCalls"/>). Calls made outside a Cicero request pass through untouched.
/// </summary>
public sealed class CiceroClientInterceptor : ClientInterceptor
{
    private const string UnknownInstance = "unknown";

    private readonly CiceroRuntime _runtime;
    private readonly string _downstreamService;
    private readonly Func<string> _callerId;
    private readonly CallerIds _instances = new();
    private EncodedId _caller = new(null, []);

    /// <summary>Creates the interceptor.</summary>
    /// <param name="runtime">This process's runtime.</param>
    /// <param name="downstreamService">The service the calls go to, as configured for rate exchange.</param>
    /// <param name="callerId">This process's id, sent so the callee can share its rate among callers.</param>
    public CiceroClientInterceptor(CiceroRuntime runtime, string downstreamService, string callerId)
        : this(runtime, downstreamService, Constant(callerId))
    {
    }

    internal CiceroClientInterceptor(CiceroRuntime runtime, string downstreamService, Func<string> callerId)
    {
        ArgumentNullException.ThrowIfNull(runtime);
        ArgumentException.ThrowIfNullOrWhiteSpace(downstreamService);
        _runtime = runtime;
        _downstreamService = downstreamService;
        _callerId = callerId;
    }

    /// <inheritdoc />
    public override AsyncUnaryCall<TResponse> AsyncUnaryCall<TRequest, TResponse>(
        TRequest request,
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncUnaryCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        if (CiceroContext.Current is not { } current)
        {
            return continuation(request, context);
        }

        var tracker = new CallTracker(this, current);
        var call = continuation(request, Stamp(context, current, tracker));
        return tracker.IsAttached
            ? call
            : new AsyncUnaryCall<TResponse>(tracker.Track(call.ResponseAsync, call.GetTrailers), call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }

    /// <inheritdoc />
    public override AsyncServerStreamingCall<TResponse> AsyncServerStreamingCall<TRequest, TResponse>(
        TRequest request,
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncServerStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        if (CiceroContext.Current is not { } current)
        {
            return continuation(request, context);
        }

        var tracker = new CallTracker(this, current);
        var call = continuation(request, Stamp(context, current, tracker));
        return tracker.IsAttached
            ? call
            : new AsyncServerStreamingCall<TResponse>(
                new TrackedReader<TResponse>(call.ResponseStream, tracker, call.GetTrailers), call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }

    /// <inheritdoc />
    public override AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCall<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncClientStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        if (CiceroContext.Current is not { } current)
        {
            return continuation(context);
        }

        var tracker = new CallTracker(this, current);
        var call = continuation(Stamp(context, current, tracker));
        return tracker.IsAttached
            ? call
            : new AsyncClientStreamingCall<TRequest, TResponse>(
                call.RequestStream, tracker.Track(call.ResponseAsync, call.GetTrailers), call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }

    /// <inheritdoc />
    public override AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCall<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncDuplexStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        if (CiceroContext.Current is not { } current)
        {
            return continuation(context);
        }

        var tracker = new CallTracker(this, current);
        var call = continuation(Stamp(context, current, tracker));
        return tracker.IsAttached
            ? call
            : new AsyncDuplexStreamingCall<TRequest, TResponse>(
                call.RequestStream, new TrackedReader<TResponse>(call.ResponseStream, tracker, call.GetTrailers), call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }

    private static Func<string> Constant(string callerId)
    {
        _ = CallerIds.Encode(callerId, nameof(callerId));
        return () => callerId;
    }

    private ClientInterceptorContext<TRequest, TResponse> Stamp<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        RequestContext current,
        CallTracker tracker)
    {
        var options = context.Options;
        var headers = new Metadata();
        if (options.Headers is { } existing)
        {
            foreach (var entry in existing)
            {
                if (entry.Key is not CiceroMetadataKeys.Context)
                {
                    headers.AddRaw(entry);
                }
            }
        }

        headers.AddRaw(MetadataEntry.FromOwnBase64(CiceroMetadataKeys.Context, ContextHeader.EncodeBase64(_runtime.Codec, current, CallerBytes())));

        var deadline = options.Deadline;
        if (current.GetRemainingBudget(_runtime.TimeProvider) is { } remaining)
        {
            var budgetDeadline = _runtime.TimeProvider.GetUtcNow() + (remaining > TimeSpan.Zero ? remaining : TimeSpan.Zero);
            deadline = deadline is { } d && d < budgetDeadline ? d : budgetDeadline;
        }

        return context with { Options = options with { Headers = headers, Deadline = deadline, CompletionObserver = tracker } };
    }

    private byte[] CallerBytes()
    {
        // The id is constant, or resolved once the server listens: encode it once per distinct value.
        var id = _callerId();
        var cached = _caller;
        if (!ReferenceEquals(cached.Id, id))
        {
            cached = new EncodedId(id, CallerIds.Encode(id, "caller id"));
            _caller = cached;
        }

        return cached.Bytes;
    }

    private void OnCompleted(RequestContext current, ParallelCalls? scope, Metadata? trailers)
    {
        Span<byte> bytes = stackalloc byte[TrailerCodec.MaxLength];
        if (trailers is null
            || !trailers.TryCopyValueBytes(CiceroMetadataKeys.Result, bytes, out var length)
            || !TrailerCodec.TryDecode(bytes[..length], out var progress, out _, out _, out _, out var instance))
        {
            _runtime.Model.Get(_runtime.Registry.Resolve(current)).RecordDownstreamCall(_downstreamService, UnknownInstance);
            return;
        }

        _runtime.Model.Get(_runtime.Registry.Resolve(current)).RecordDownstreamCall(_downstreamService, _instances.Get(instance));
        if (scope is not null && scope.Belongs(current))
        {
            scope.Add(progress);
        }
        else
        {
            current.Progress.AddSequential(progress);
        }
    }

    private sealed record EncodedId(string? Id, byte[] Bytes);

    /// <summary>
    /// Finishes one call's accounting exactly once, however it ends: told by the transport (no wrapper, no extra state
    /// machine), or, behind a transport that does not know it, by wrapping the call's response.
    /// </summary>
    private sealed class CallTracker(CiceroClientInterceptor owner, RequestContext current) : CallCompletionObserver
    {
        private readonly ParallelCalls? _scope = ParallelCalls.Current;
        private int _done;

        public override void OnCallCompleted(RpcStatus status, Metadata trailers) => Complete(trailers);

        public async Task<T> Track<T>(Task<T> response, Func<Metadata> getTrailers)
        {
            try
            {
                return await response.ConfigureAwait(false);
            }
            finally
            {
                Complete(getTrailers);
            }
        }

        public void Complete(Func<Metadata> getTrailers)
        {
            Metadata? trailers;
            try
            {
                trailers = getTrailers();
            }
            catch (InvalidOperationException)
            {
                trailers = null;
            }

            Complete(trailers);
        }

        private void Complete(Metadata? trailers)
        {
            if (Interlocked.Exchange(ref _done, 1) != 0)
            {
                return;
            }

            owner.OnCompleted(current, _scope, trailers);
        }
    }

    private sealed class TrackedReader<T>(IAsyncStreamReader<T> inner, CallTracker tracker, Func<Metadata> getTrailers) : IAsyncStreamReader<T>
    {
        public T Current => inner.Current;

        public async Task<bool> MoveNext(CancellationToken cancellationToken = default)
        {
            try
            {
                var more = await inner.MoveNext(cancellationToken).ConfigureAwait(false);
                if (!more)
                {
                    tracker.Complete(getTrailers);
                }

                return more;
            }
            catch (RpcException)
            {
                tracker.Complete(getTrailers);
                throw;
            }
        }
    }
}
