// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Telemetry;
using Cicero.Runtime;

namespace Cicero.Grpc.Server;

/// <summary>
/// Cicero's server side, for all four call kinds: reads or starts the request context, admits or rejects
/// (<see cref="StatusCode.ResourceExhausted"/> with the reason in <see cref="CiceroMetadataKeys.DropReason"/>, before any
/// work), makes the context ambient (<see cref="CiceroContext.Current"/>), and on completion writes the progress
/// counters b, the replica-selection feedback and the instance id into the trailers.
/// </summary>
public sealed class CiceroServerInterceptor : ServerInterceptor
{
    private readonly CiceroRuntime _runtime;
    private readonly CiceroGrpcOptions _options;
    private readonly CiceroInstance _instance;
    private readonly WorkflowTagLimiter _tags;
    private long _inFlight;

    /// <summary>Creates the interceptor.</summary>
    /// <param name="runtime">This process's Cicero runtime.</param>
    /// <param name="options">The options.</param>
    /// <param name="instance">This process's identity.</param>
    /// <param name="tags">Bounds the workflow tag on spans; a default limiter when <see langword="null"/>.</param>
    public CiceroServerInterceptor(CiceroRuntime runtime, CiceroGrpcOptions options, CiceroInstance instance, WorkflowTagLimiter? tags = null)
    {
        ArgumentNullException.ThrowIfNull(runtime);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(instance);
        _runtime = runtime;
        _options = options;
        _instance = instance;
        _tags = tags ?? new WorkflowTagLimiter();
    }

    /// <summary>Gets the number of admitted calls in progress.</summary>
    public long InFlight => Interlocked.Read(ref _inFlight);

    /// <inheritdoc />
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request,
        ServerCallContext context,
        UnaryServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        using var activity = CiceroActivities.StartServerActivity(context.Method, default, _tags);
        var call = await BeginAsync(context, activity).ConfigureAwait(false);
        CiceroContext.Current = call.Request;
        try
        {
            return await continuation(request, context).ConfigureAwait(false);
        }
        catch (RequestDroppedException ex)
        {
            throw Dropped(context, ex.Reason, ex.Message);
        }
        finally
        {
            End(context, call);
        }
    }

    /// <inheritdoc />
    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream,
        ServerCallContext context,
        ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        using var activity = CiceroActivities.StartServerActivity(context.Method, default, _tags);
        var call = await BeginAsync(context, activity).ConfigureAwait(false);
        CiceroContext.Current = call.Request;
        try
        {
            return await continuation(requestStream, context).ConfigureAwait(false);
        }
        catch (RequestDroppedException ex)
        {
            throw Dropped(context, ex.Reason, ex.Message);
        }
        finally
        {
            End(context, call);
        }
    }

    /// <inheritdoc />
    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(
        TRequest request,
        IAsyncStreamWriter<TResponse> responseStream,
        ServerCallContext context,
        ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        using var activity = CiceroActivities.StartServerActivity(context.Method, default, _tags);
        var call = await BeginAsync(context, activity).ConfigureAwait(false);
        CiceroContext.Current = call.Request;
        try
        {
            await continuation(request, responseStream, context).ConfigureAwait(false);
        }
        catch (RequestDroppedException ex)
        {
            throw Dropped(context, ex.Reason, ex.Message);
        }
        finally
        {
            End(context, call);
        }
    }

    /// <inheritdoc />
    public override async Task DuplexStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream,
        IAsyncStreamWriter<TResponse> responseStream,
        ServerCallContext context,
        DuplexStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        using var activity = CiceroActivities.StartServerActivity(context.Method, default, _tags);
        var call = await BeginAsync(context, activity).ConfigureAwait(false);
        CiceroContext.Current = call.Request;
        try
        {
            await continuation(requestStream, responseStream, context).ConfigureAwait(false);
        }
        catch (RequestDroppedException ex)
        {
            throw Dropped(context, ex.Reason, ex.Message);
        }
        finally
        {
            End(context, call);
        }
    }

    private async ValueTask<AdmittedCall> BeginAsync(ServerCallContext context, System.Diagnostics.Activity? activity)
    {
        var trusted = !_options.IsEntryPoint || _options.TrustIncomingContext || (_options.IsTrustedCaller?.Invoke(context) ?? false);
        RequestContext? request = null;
        var header = context.RequestHeaders.Get(CiceroMetadataKeys.Context);
        if (header is not null)
        {
            if (!header.IsBinary)
            {
                throw Invalid($"Header '{CiceroMetadataKeys.Context}' must be binary.");
            }

            var bytes = header.ValueBytes;
            if (bytes.Length > _options.MaxContextHeaderBytes)
            {
                throw Invalid($"Header '{CiceroMetadataKeys.Context}' is {bytes.Length} bytes; the limit is {_options.MaxContextHeaderBytes}.");
            }

            // An untrusted caller's context is not even decoded: its workflow must not enter the registry.
            if (trusted)
            {
                if (!_runtime.Codec.TryRead(bytes, out request, out var error))
                {
                    throw Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: {error}");
                }
            }
        }

        var isEntry = request is null;
        if (request is null)
        {
            var workflow = _options.Classifier.Classify(context);
            var deadline = _options.DeadlineSelector?.Invoke(context, workflow)
                ?? (context.Deadline is { } d ? d - _runtime.TimeProvider.GetUtcNow() : _options.DefaultDeadline);
            if (deadline <= TimeSpan.Zero)
            {
                // The caller's deadline passed before admission (a timeout of a few nanoseconds, or time spent in the
                // transport): nothing can finish in time, and a context cannot carry a δ that is not positive.
                throw new RpcException(new RpcStatus(StatusCode.DeadlineExceeded, "The call's deadline passed before it was admitted."));
            }

            request = _runtime.StartRequest(workflow, deadline);
        }

        CiceroActivities.SetWorkflow(activity, request.Workflow, _tags);
        var caller = trusted ? context.RequestHeaders.GetValue(CiceroMetadataKeys.Caller) : null;
        var result = _options.QueueForAdmission
            ? await _runtime.Admission.AdmitAsync(request, caller, context.CancellationToken).ConfigureAwait(false)
            : _runtime.Admission.TryAdmit(request, caller);
        CiceroActivities.SetAdmission(activity, result.Reason);
        if (!result.IsAdmitted)
        {
            throw Dropped(context, result.Reason, null);
        }

        Interlocked.Increment(ref _inFlight);
        return new AdmittedCall(request, _runtime.TimeProvider.GetTimestamp(), isEntry);
    }

    private void End(ServerCallContext context, AdmittedCall call)
    {
        var othersInFlight = Interlocked.Decrement(ref _inFlight);
        var serviceTime = _runtime.TimeProvider.GetElapsedTime(call.AdmittedAt);
        var trailers = context.ResponseTrailers;
        trailers.Add(CiceroMetadataKeys.Progress, TrailerCodec.EncodeProgress(call.Request.Progress.Current));
        trailers.Add(CiceroMetadataKeys.Feedback, TrailerCodec.EncodeFeedback(othersInFlight, serviceTime, _options.BackgroundActivity?.Invoke() ?? 0));
        trailers.Add(CiceroMetadataKeys.Instance, _instance.Id);
        _runtime.CompleteRequest(call.Request, call.AdmittedAt, call.IsEntry);
    }

    private RpcException Dropped(ServerCallContext context, DropReason reason, string? detail)
    {
        _ = context;
        var tag = DropReasonNames.ToWire(reason);
        var trailers = new Metadata().Add(CiceroMetadataKeys.DropReason, tag);
        var message = detail is null ? $"Request dropped by Cicero at {_instance.ServiceName}: {tag}." : $"Request dropped by Cicero at {_instance.ServiceName}: {tag} ({detail}).";
        return new RpcException(new RpcStatus(StatusCode.ResourceExhausted, message), trailers);
    }

    private static RpcException Invalid(string message) => new(new RpcStatus(StatusCode.InvalidArgument, message));

    private readonly record struct AdmittedCall(RequestContext Request, long AdmittedAt, bool IsEntry);
}
