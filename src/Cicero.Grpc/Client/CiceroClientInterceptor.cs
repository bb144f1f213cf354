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
public sealed partial class CiceroClientInterceptor : Interceptor
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
        if (current is null && _unbalanced)
        {
            return continuation(request, context);
        }

        var tracker = new CallTracker(this, current);
        var previous = tracker.Enter();
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
            CallTracker.Leave(previous);
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
        if (current is null && _unbalanced)
        {
            return continuation(request, context);
        }

        var tracker = new CallTracker(this, current);
        AsyncUnaryCall<TResponse> call;
        var previous = tracker.Enter();
        try
        {
            call = continuation(request, current is null ? context : Stamp(context, current));
        }
        finally
        {
            CallTracker.Leave(previous);
        }

        if (!tracker.IsNeeded)
        {
            return call;
        }

        // The state-taking constructor: response headers are fetched only if the caller asks (grpc-dotnet starts
        // reading them when ResponseHeadersAsync is read), and no delegate is allocated per call.
        tracker.Wrap(call, static s => ((AsyncUnaryCall<TResponse>)s).GetStatus(), static s => ((AsyncUnaryCall<TResponse>)s).GetTrailers());
        return new AsyncUnaryCall<TResponse>(
            tracker.Track(call.ResponseAsync),
            static s => ((AsyncUnaryCall<TResponse>)((CallTracker)s).Call!).ResponseHeadersAsync,
            CallTracker.StatusOf,
            CallTracker.TrailersOf,
            static s => ((CallTracker)s).Dispose<AsyncUnaryCall<TResponse>>(),
            tracker);
    }

    /// <inheritdoc />
    public override AsyncServerStreamingCall<TResponse> AsyncServerStreamingCall<TRequest, TResponse>(
        TRequest request,
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncServerStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        var current = CiceroContext.Current;
        if (current is null && _unbalanced)
        {
            return continuation(request, context);
        }

        var tracker = new CallTracker(this, current);
        AsyncServerStreamingCall<TResponse> call;
        var previous = tracker.Enter();
        try
        {
            call = continuation(request, current is null ? context : Stamp(context, current));
        }
        finally
        {
            CallTracker.Leave(previous);
        }

        if (!tracker.IsNeeded)
        {
            return call;
        }

        tracker.Wrap(call, static s => ((AsyncServerStreamingCall<TResponse>)s).GetStatus(), static s => ((AsyncServerStreamingCall<TResponse>)s).GetTrailers());
        return new AsyncServerStreamingCall<TResponse>(
            new TrackedReader<TResponse>(call.ResponseStream, tracker),
            static s => ((AsyncServerStreamingCall<TResponse>)((CallTracker)s).Call!).ResponseHeadersAsync,
            CallTracker.StatusOf,
            CallTracker.TrailersOf,
            static s => ((CallTracker)s).Dispose<AsyncServerStreamingCall<TResponse>>(),
            tracker);
    }

    /// <inheritdoc />
    public override AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCall<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncClientStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        var current = CiceroContext.Current;
        if (current is null && _unbalanced)
        {
            return continuation(context);
        }

        var tracker = new CallTracker(this, current);
        AsyncClientStreamingCall<TRequest, TResponse> call;
        var previous = tracker.Enter();
        try
        {
            call = continuation(current is null ? context : Stamp(context, current));
        }
        finally
        {
            CallTracker.Leave(previous);
        }

        if (!tracker.IsNeeded)
        {
            return call;
        }

        tracker.Wrap(call, static s => ((AsyncClientStreamingCall<TRequest, TResponse>)s).GetStatus(), static s => ((AsyncClientStreamingCall<TRequest, TResponse>)s).GetTrailers());
        return new AsyncClientStreamingCall<TRequest, TResponse>(
            call.RequestStream,
            tracker.Track(call.ResponseAsync),
            static s => ((AsyncClientStreamingCall<TRequest, TResponse>)((CallTracker)s).Call!).ResponseHeadersAsync,
            CallTracker.StatusOf,
            CallTracker.TrailersOf,
            static s => ((CallTracker)s).Dispose<AsyncClientStreamingCall<TRequest, TResponse>>(),
            tracker);
    }

    /// <inheritdoc />
    public override AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCall<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncDuplexStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        var current = CiceroContext.Current;
        if (current is null && _unbalanced)
        {
            return continuation(context);
        }

        var tracker = new CallTracker(this, current);
        AsyncDuplexStreamingCall<TRequest, TResponse> call;
        var previous = tracker.Enter();
        try
        {
            call = continuation(current is null ? context : Stamp(context, current));
        }
        finally
        {
            CallTracker.Leave(previous);
        }

        if (!tracker.IsNeeded)
        {
            return call;
        }

        tracker.Wrap(call, static s => ((AsyncDuplexStreamingCall<TRequest, TResponse>)s).GetStatus(), static s => ((AsyncDuplexStreamingCall<TRequest, TResponse>)s).GetTrailers());
        return new AsyncDuplexStreamingCall<TRequest, TResponse>(
            call.RequestStream,
            new TrackedReader<TResponse>(call.ResponseStream, tracker),
            static s => ((AsyncDuplexStreamingCall<TRequest, TResponse>)((CallTracker)s).Call!).ResponseHeadersAsync,
            CallTracker.StatusOf,
            CallTracker.TrailersOf,
            static s => ((CallTracker)s).Dispose<AsyncDuplexStreamingCall<TRequest, TResponse>>(),
            tracker);
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

    private void OnCompleted(RequestContext current, ParallelCalls? scope, in DecodedResultTrailer result)
    {
        if (!result.IsValid)
        {
            _runtime.Model.Get(_runtime.Registry.Resolve(current)).RecordDownstreamCall(_downstreamService, UnknownInstance);
            return;
        }

        var progress = result.Progress;
        _runtime.Model.Get(_runtime.Registry.Resolve(current)).RecordDownstreamCall(_downstreamService, result.Instance.IsEmpty ? UnknownInstance : _instances.Get(result.Instance.Span));
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
}
