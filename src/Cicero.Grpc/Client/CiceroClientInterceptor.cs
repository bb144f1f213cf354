// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Grpc.LoadBalancing;
using Cicero.Runtime;
using Grpc.Core;
using Grpc.Core.Interceptors;

namespace Cicero.Grpc.Client;

/// <summary>
/// Cicero's client side as a grpc-dotnet <see cref="Interceptor"/> for the calls to one downstream service: stamps the
/// request context and this process's id on the call, caps the gRPC deadline at the context's remaining budget, and
/// when the call ends counts it towards the workflow's amplification and joins the callee's progress b into the
/// caller's (sequentially, or in parallel inside <see cref="ParallelCalls"/>). On a channel balanced by a Cicero
/// policy (<see cref="ReplicaSelectorBalancerFactory"/>) it also hands each call's trailers to the replica that served
/// it. Calls made outside a Cicero request pass through with their headers and deadline untouched.
/// </summary>
/// <remarks>
/// Attach it with <c>AddGrpcClient&lt;T&gt;().AddCiceroDownstream("service")</c>, or to any channel with
/// <c>channel.Intercept(new CiceroClientInterceptor(runtime, "service", "http://10.0.0.5:5000"))</c>.
/// </remarks>
public sealed class CiceroClientInterceptor : Interceptor
{
    private const string UnknownInstance = "unknown";

    private readonly CiceroRuntime _runtime;
    private readonly string _downstreamService;
    private readonly Func<string> _callerId;
    private readonly CallerIds _instances = new();
    private EncodedId _caller = new(null, []);
    private volatile bool _unbalanced;

    /// <summary>Creates the interceptor.</summary>
    /// <param name="runtime">This process's runtime.</param>
    /// <param name="downstreamService">The service the calls go to, as configured for rate exchange.</param>
    /// <param name="callerId">This process's id, sent so the callee can share its rate among callers.</param>
    public CiceroClientInterceptor(CiceroRuntime runtime, string downstreamService, string callerId)
        : this(runtime, downstreamService, Constant(callerId))
    {
    }

    /// <summary>Creates the interceptor with an id resolved when the first call is made (e.g. once the server listens).</summary>
    /// <param name="runtime">This process's runtime.</param>
    /// <param name="downstreamService">The service the calls go to, as configured for rate exchange.</param>
    /// <param name="callerId">Gives this process's id.</param>
    public CiceroClientInterceptor(CiceroRuntime runtime, string downstreamService, Func<string> callerId)
    {
        ArgumentNullException.ThrowIfNull(runtime);
        ArgumentException.ThrowIfNullOrWhiteSpace(downstreamService);
        ArgumentNullException.ThrowIfNull(callerId);
        _runtime = runtime;
        _downstreamService = downstreamService;
        _callerId = callerId;
    }

    /// <summary>Gets the downstream service the calls go to.</summary>
    public string DownstreamService => _downstreamService;

    /// <inheritdoc />
    public override TResponse BlockingUnaryCall<TRequest, TResponse>(
        TRequest request,
        ClientInterceptorContext<TRequest, TResponse> context,
        BlockingUnaryCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        var current = CiceroContext.Current;
        var tracker = new CallTracker(this, current);
        var previous = OutgoingCall.Enter(tracker.Slot);
        try
        {
            var response = continuation(request, current is null ? context : Stamp(context, current));
            tracker.Complete(null, StatusCode.OK);
            return response;
        }
        catch (RpcException ex)
        {
            tracker.Complete(ex.Trailers, ex.StatusCode);
            throw;
        }
        finally
        {
            OutgoingCall.Exit(previous);
        }
    }

    /// <inheritdoc />
    public override AsyncUnaryCall<TResponse> AsyncUnaryCall<TRequest, TResponse>(
        TRequest request,
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncUnaryCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        var current = CiceroContext.Current;
        var tracker = new CallTracker(this, current);
        AsyncUnaryCall<TResponse> call;
        var previous = OutgoingCall.Enter(tracker.Slot);
        try
        {
            call = continuation(request, current is null ? context : Stamp(context, current));
        }
        finally
        {
            OutgoingCall.Exit(previous);
        }

        if (!tracker.IsNeeded)
        {
            return call;
        }

        return new AsyncUnaryCall<TResponse>(
            tracker.Track(call.ResponseAsync, call.GetStatus, call.GetTrailers),
            call.ResponseHeadersAsync,
            call.GetStatus,
            call.GetTrailers,
            () =>
            {
                call.Dispose();
                tracker.Complete(null, StatusCode.Cancelled);
            });
    }

    /// <inheritdoc />
    public override AsyncServerStreamingCall<TResponse> AsyncServerStreamingCall<TRequest, TResponse>(
        TRequest request,
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncServerStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        var current = CiceroContext.Current;
        var tracker = new CallTracker(this, current);
        AsyncServerStreamingCall<TResponse> call;
        var previous = OutgoingCall.Enter(tracker.Slot);
        try
        {
            call = continuation(request, current is null ? context : Stamp(context, current));
        }
        finally
        {
            OutgoingCall.Exit(previous);
        }

        if (!tracker.IsNeeded)
        {
            return call;
        }

        return new AsyncServerStreamingCall<TResponse>(
            new TrackedReader<TResponse>(call.ResponseStream, tracker, call.GetStatus, call.GetTrailers),
            call.ResponseHeadersAsync,
            call.GetStatus,
            call.GetTrailers,
            () =>
            {
                call.Dispose();
                tracker.Complete(null, StatusCode.Cancelled);
            });
    }

    /// <inheritdoc />
    public override AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCall<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncClientStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        var current = CiceroContext.Current;
        var tracker = new CallTracker(this, current);
        AsyncClientStreamingCall<TRequest, TResponse> call;
        var previous = OutgoingCall.Enter(tracker.Slot);
        try
        {
            call = continuation(current is null ? context : Stamp(context, current));
        }
        finally
        {
            OutgoingCall.Exit(previous);
        }

        if (!tracker.IsNeeded)
        {
            return call;
        }

        return new AsyncClientStreamingCall<TRequest, TResponse>(
            call.RequestStream,
            tracker.Track(call.ResponseAsync, call.GetStatus, call.GetTrailers),
            call.ResponseHeadersAsync,
            call.GetStatus,
            call.GetTrailers,
            () =>
            {
                call.Dispose();
                tracker.Complete(null, StatusCode.Cancelled);
            });
    }

    /// <inheritdoc />
    public override AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCall<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncDuplexStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        var current = CiceroContext.Current;
        var tracker = new CallTracker(this, current);
        AsyncDuplexStreamingCall<TRequest, TResponse> call;
        var previous = OutgoingCall.Enter(tracker.Slot);
        try
        {
            call = continuation(current is null ? context : Stamp(context, current));
        }
        finally
        {
            OutgoingCall.Exit(previous);
        }

        if (!tracker.IsNeeded)
        {
            return call;
        }

        return new AsyncDuplexStreamingCall<TRequest, TResponse>(
            call.RequestStream,
            new TrackedReader<TResponse>(call.ResponseStream, tracker, call.GetStatus, call.GetTrailers),
            call.ResponseHeadersAsync,
            call.GetStatus,
            call.GetTrailers,
            () =>
            {
                call.Dispose();
                tracker.Complete(null, StatusCode.Cancelled);
            });
    }

    private static Func<string> Constant(string callerId)
    {
        _ = CallerIds.Encode(callerId, nameof(callerId));
        return () => callerId;
    }

    private ClientInterceptorContext<TRequest, TResponse> Stamp<TRequest, TResponse>(ClientInterceptorContext<TRequest, TResponse> context, RequestContext current)
        where TRequest : class
        where TResponse : class
    {
        var options = context.Options;
        var headers = new Metadata();
        if (options.Headers is { } existing)
        {
            foreach (var entry in existing)
            {
                // A context the application copied from the incoming call is replaced, never sent twice.
                if (!string.Equals(entry.Key, CiceroMetadataKeys.Context, StringComparison.Ordinal))
                {
                    headers.Add(entry);
                }
            }
        }

        headers.Add(CiceroMetadataKeys.Context, ContextHeader.Encode(_runtime.Codec, current, CallerBytes()));
        var deadline = options.Deadline;
        if (current.GetRemainingBudget(_runtime.TimeProvider) is { } remaining)
        {
            // A budget beyond what DateTime holds is no deadline at all (grpc-dotnet's own is DateTime.MaxValue).
            var now = _runtime.TimeProvider.GetUtcNow().UtcDateTime;
            var budget = remaining > TimeSpan.Zero ? remaining : TimeSpan.Zero;
            var budgetDeadline = budget < DateTime.MaxValue - now ? now + budget : DateTime.MaxValue;
            deadline = deadline is { } d && d < budgetDeadline ? d : budgetDeadline;
        }

        options = options.WithHeaders(headers);
        if (deadline is { } capped)
        {
            options = options.WithDeadline(capped);
        }

        return new ClientInterceptorContext<TRequest, TResponse>(context.Method, context.Host, options);
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
        if (trailers?.Get(CiceroMetadataKeys.Result) is not { IsBinary: true } entry
            || !TrailerCodec.TryDecode(entry.ValueBytes, out var progress, out _, out _, out _, out var instance))
        {
            _runtime.Model.Get(_runtime.Registry.Resolve(current)).RecordDownstreamCall(_downstreamService, UnknownInstance);
            return;
        }

        _runtime.Model.Get(_runtime.Registry.Resolve(current)).RecordDownstreamCall(_downstreamService, instance.IsEmpty ? UnknownInstance : _instances.Get(instance));
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
    /// Finishes one call's accounting exactly once, however it ends: the request's progress and amplification when
    /// the call was made inside a Cicero request, and the balancer's feedback when a Cicero policy picked its replica.
    /// </summary>
    private sealed class CallTracker(CiceroClientInterceptor owner, RequestContext? current)
    {
        private readonly ParallelCalls? _scope = current is null ? null : ParallelCalls.Current;
        private int _done;

        public OutgoingCall Slot { get; } = new();

        /// <summary>
        /// Gets a value indicating whether the call must be wrapped: inside a request, or on a channel a Cicero policy
        /// balances (its pick may come after the call object is returned, e.g. on a cold channel). Once a call
        /// succeeded without any Cicero pick, the channel is known to have no Cicero balancer and calls outside a
        /// request pass through unwrapped, releasing their slot.
        /// </summary>
        public bool IsNeeded
        {
            get
            {
                if (current is not null || Slot.IsBound || !owner._unbalanced)
                {
                    return true;
                }

                Slot.Abandon();
                return false;
            }
        }

        public async Task<T> Track<T>(Task<T> response, Func<Status> getStatus, Func<Metadata> getTrailers)
        {
            try
            {
                var result = await response.ConfigureAwait(false);
                Complete(getStatus, getTrailers);
                return result;
            }
            catch (RpcException ex)
            {
                Complete(ex.Trailers, ex.StatusCode);
                throw;
            }
            catch
            {
                Complete(null, StatusCode.Cancelled);
                throw;
            }
        }

        public void Complete(Func<Status> getStatus, Func<Metadata> getTrailers)
        {
            Metadata? trailers;
            StatusCode status;
            try
            {
                status = getStatus().StatusCode;
                trailers = getTrailers();
            }
            catch (InvalidOperationException)
            {
                status = StatusCode.Unknown;
                trailers = null;
            }

            Complete(trailers, status);
        }

        public void Complete(Metadata? trailers, StatusCode status)
        {
            if (Interlocked.Exchange(ref _done, 1) != 0)
            {
                return;
            }

            if (status == StatusCode.OK && !Slot.IsBound)
            {
                owner._unbalanced = true;
            }

            Slot.Report(trailers, status);
            if (current is not null)
            {
                owner.OnCompleted(current, _scope, trailers);
            }
        }
    }

    private sealed class TrackedReader<T>(IAsyncStreamReader<T> inner, CallTracker tracker, Func<Status> getStatus, Func<Metadata> getTrailers) : IAsyncStreamReader<T>
    {
        public T Current => inner.Current;

        public async Task<bool> MoveNext(CancellationToken cancellationToken)
        {
            try
            {
                var more = await inner.MoveNext(cancellationToken).ConfigureAwait(false);
                if (!more)
                {
                    tracker.Complete(getStatus, getTrailers);
                }

                return more;
            }
            catch (RpcException ex)
            {
                tracker.Complete(ex.Trailers, ex.StatusCode);
                throw;
            }
        }
    }
}
