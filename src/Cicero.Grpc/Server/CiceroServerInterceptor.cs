// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Logging;
using Grpc.Core;
using Cicero.Grpc.Telemetry;
using Cicero.Runtime;
using Grpc.Core.Interceptors;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Server;

/// <summary>
/// Cicero's server side as a grpc-dotnet <see cref="Interceptor"/>, for all four call kinds: reads or starts the request
/// context, admits or rejects (<see cref="StatusCode.ResourceExhausted"/> or <see cref="StatusCode.DeadlineExceeded"/>
/// with the reason in <see cref="CiceroMetadataKeys.DropReason"/>, before any work), makes the context ambient
/// (<see cref="CiceroContext.Current"/>), and on completion writes the progress counters b, the replica-selection
/// feedback and the instance id into one trailer (<see cref="CiceroMetadataKeys.Result"/>). <c>AddCicero</c> registers it
/// for every service mapped with <c>MapGrpcService&lt;T&gt;()</c>; control-plane services (rate exchange, health,
/// reflection, <see cref="CiceroGrpcOptions.ExemptServices"/>) pass through untouched.
/// </summary>
public sealed class CiceroServerInterceptor : Interceptor
{
    private readonly CiceroRuntime _runtime;
    private readonly CiceroGrpcOptions _options;
    private readonly CiceroInstance _instance;
    private readonly WorkflowTagLimiter _tags;
    private readonly CallerIds _callers = new();
    private readonly string[] _exempt;
    private readonly DropLogSampler? _drops;
    private byte[]? _instanceBytes;
    private long _inFlight;

    /// <summary>Creates the interceptor.</summary>
    /// <param name="runtime">This process's Cicero runtime.</param>
    /// <param name="options">The options.</param>
    /// <param name="instance">This process's identity.</param>
    /// <param name="tags">Bounds the workflow tag on spans; a default limiter when <see langword="null"/>.</param>
    /// <param name="loggerFactory">Where drops are logged, sampled to at most one message a second; none when <see langword="null"/>.</param>
    public CiceroServerInterceptor(CiceroRuntime runtime, CiceroGrpcOptions options, CiceroInstance instance, WorkflowTagLimiter? tags = null, ILoggerFactory? loggerFactory = null)
    {
        ArgumentNullException.ThrowIfNull(runtime);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(instance);
        _runtime = runtime;
        _options = options;
        _instance = instance;
        _tags = tags ?? new WorkflowTagLimiter();
        _exempt = [.. options.ExemptServices.Select(service => "/" + service + "/")];
        _drops = loggerFactory is null ? null : new DropLogSampler(loggerFactory.CreateLogger<CiceroServerInterceptor>(), runtime.TimeProvider);
    }

    /// <summary>Gets the number of admitted calls in progress.</summary>
    public long InFlight => Interlocked.Read(ref _inFlight);

    /// <inheritdoc />
    /// <remarks>
    /// An admitted call whose handler finishes synchronously runs without a state machine of Cicero's: admission,
    /// handler and completion all happen in this frame, and the handler's own task is returned.
    /// </remarks>
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request,
        ServerCallContext context,
        UnaryServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        if (IsExempt(context))
        {
            return continuation(request, context);
        }

        var activity = CiceroActivities.StartServerActivity(context.Method, default, _tags);
        ValueTask<AdmittedCall> begin;
        try
        {
            begin = BeginAsync(context, activity);
        }
        catch
        {
            activity?.Dispose();
            throw;
        }

        if (!begin.IsCompletedSuccessfully)
        {
            return UnaryAfterAdmissionAsync(begin, request, context, continuation, activity);
        }

        var call = begin.Result;
        Task<TResponse> response;
        var previous = CiceroContext.Current;
        CiceroContext.Current = call.Request;
        try
        {
            response = continuation(request, context);
        }
        catch (RequestDroppedException ex)
        {
            End(context, call);
            activity?.Dispose();
            throw Dropped(context, ex.Reason, ex.Message);
        }
        catch (RpcException ex) when (IsDownstreamDrop(ex))
        {
            End(context, call);
            activity?.Dispose();
            throw DownstreamDropped(context, ex);
        }
        catch (RpcException ex) when (CarriesResult(ex))
        {
            End(context, call);
            activity?.Dispose();
            throw WithoutResult(ex);
        }
        catch
        {
            End(context, call);
            activity?.Dispose();
            throw;
        }
        finally
        {
            // The handler's own flow keeps the context (its state machine captured it); this frame's caller must not.
            CiceroContext.Current = previous;
        }

        if (response.IsCompletedSuccessfully)
        {
            End(context, call);
            activity?.Dispose();
            return response;
        }

        return UnaryAwaitHandlerAsync(response, call, context, activity);
    }

    /// <inheritdoc />
    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream,
        ServerCallContext context,
        ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        if (IsExempt(context))
        {
            return await continuation(requestStream, context).ConfigureAwait(false);
        }

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
        catch (RpcException ex) when (IsDownstreamDrop(ex))
        {
            throw DownstreamDropped(context, ex);
        }
        catch (RpcException ex) when (CarriesResult(ex))
        {
            throw WithoutResult(ex);
        }
        finally
        {
            End(context, call);
        }
    }

    /// <inheritdoc />
    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(
        TRequest request,
        IServerStreamWriter<TResponse> responseStream,
        ServerCallContext context,
        ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        if (IsExempt(context))
        {
            await continuation(request, responseStream, context).ConfigureAwait(false);
            return;
        }

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
        catch (RpcException ex) when (IsDownstreamDrop(ex))
        {
            throw DownstreamDropped(context, ex);
        }
        catch (RpcException ex) when (CarriesResult(ex))
        {
            throw WithoutResult(ex);
        }
        finally
        {
            End(context, call);
        }
    }

    /// <inheritdoc />
    public override async Task DuplexStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream,
        IServerStreamWriter<TResponse> responseStream,
        ServerCallContext context,
        DuplexStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        if (IsExempt(context))
        {
            await continuation(requestStream, responseStream, context).ConfigureAwait(false);
            return;
        }

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
        catch (RpcException ex) when (IsDownstreamDrop(ex))
        {
            throw DownstreamDropped(context, ex);
        }
        catch (RpcException ex) when (CarriesResult(ex))
        {
            throw WithoutResult(ex);
        }
        finally
        {
            End(context, call);
        }
    }

    private async Task<TResponse> UnaryAfterAdmissionAsync<TRequest, TResponse>(
        ValueTask<AdmittedCall> begin,
        TRequest request,
        ServerCallContext context,
        UnaryServerMethod<TRequest, TResponse> continuation,
        System.Diagnostics.Activity? activity)
        where TRequest : class
        where TResponse : class
    {
        using (activity)
        {
            var call = await begin.ConfigureAwait(false);
            CiceroContext.Current = call.Request;
            try
            {
                return await continuation(request, context).ConfigureAwait(false);
            }
            catch (RequestDroppedException ex)
            {
                throw Dropped(context, ex.Reason, ex.Message);
            }
            catch (RpcException ex) when (IsDownstreamDrop(ex))
            {
                throw DownstreamDropped(context, ex);
            }
            catch (RpcException ex) when (CarriesResult(ex))
            {
                throw WithoutResult(ex);
            }
            finally
            {
                End(context, call);
            }
        }
    }

    private async Task<TResponse> UnaryAwaitHandlerAsync<TResponse>(Task<TResponse> response, AdmittedCall call, ServerCallContext context, System.Diagnostics.Activity? activity)
    {
        using (activity)
        {
            try
            {
                return await response.ConfigureAwait(false);
            }
            catch (RequestDroppedException ex)
            {
                throw Dropped(context, ex.Reason, ex.Message);
            }
            catch (RpcException ex) when (IsDownstreamDrop(ex))
            {
                throw DownstreamDropped(context, ex);
            }
            catch (RpcException ex) when (CarriesResult(ex))
            {
                throw WithoutResult(ex);
            }
            finally
            {
                End(context, call);
            }
        }
    }

    /// <summary>Reads or starts the context and admits it; completes synchronously unless admission queues the call.</summary>
    /// <remarks>One clock reading serves the decoding, the admission and the admission timestamp of a call admitted at once.</remarks>
    private ValueTask<AdmittedCall> BeginAsync(ServerCallContext context, System.Diagnostics.Activity? activity)
    {
        var now = _runtime.TimeProvider.GetTimestamp();
        var (request, caller, isEntry) = ReadOrStartRequest(context, now);
        var untrusted = isEntry && !IsTrusted(context);
        CiceroActivities.SetWorkflow(activity, request.Workflow, _tags);
        if (!_options.QueueForAdmission)
        {
            return new ValueTask<AdmittedCall>(Admitted(context, activity, request, isEntry, untrusted, _runtime.Admission.TryAdmit(request, caller, now), now));
        }

        var admission = _runtime.Admission.AdmitAsync(request, caller, now, context.CancellationToken);
        return admission.IsCompletedSuccessfully
            ? new ValueTask<AdmittedCall>(Admitted(context, activity, request, isEntry, untrusted, admission.Result, now))
            : AwaitAdmissionAsync(admission, context, activity, request, isEntry, untrusted);
    }

    private async ValueTask<AdmittedCall> AwaitAdmissionAsync(
        ValueTask<AdmissionResult> admission,
        ServerCallContext context,
        System.Diagnostics.Activity? activity,
        RequestContext request,
        bool isEntry,
        bool untrusted)
    {
        var result = await admission.ConfigureAwait(false);
        return Admitted(context, activity, request, isEntry, untrusted, result, _runtime.TimeProvider.GetTimestamp());
    }

    private AdmittedCall Admitted(ServerCallContext context, System.Diagnostics.Activity? activity, RequestContext request, bool isEntry, bool untrusted, AdmissionResult result, long now)
    {
        CiceroActivities.SetAdmission(activity, result.Reason);
        if (!result.IsAdmitted)
        {
            throw Dropped(context, result.Reason, null);
        }

        Interlocked.Increment(ref _inFlight);
        return new AdmittedCall(request, now, isEntry, untrusted);
    }

    private (RequestContext Request, string? Caller, bool IsEntry) ReadOrStartRequest(ServerCallContext context, long now)
    {
        var trusted = IsTrusted(context);
        RequestContext? request = null;
        string? caller = null;
        Span<byte> buffer = stackalloc byte[ContextHeader.MaxLength];
        var read = IncomingHeaders.TryRead(context, CiceroMetadataKeys.Context, buffer, out var length);
        switch (read)
        {
            case IncomingHeaders.Outcome.Malformed:
                throw Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: it must be one binary (base64) value.");
            case IncomingHeaders.Outcome.TooLong:
                throw Invalid($"Header '{CiceroMetadataKeys.Context}' is longer than the limit of {_options.MaxContextHeaderBytes} bytes.");
            case IncomingHeaders.Outcome.Found when length > _options.MaxContextHeaderBytes:
                throw Invalid($"Header '{CiceroMetadataKeys.Context}' is {length} bytes; the limit is {_options.MaxContextHeaderBytes}.");
            case IncomingHeaders.Outcome.Found when trusted:
                // An untrusted caller's context is not even decoded: its workflow must not enter the registry.
                ContextHeader.Split(buffer[..length], out var contextBytes, out var callerBytes);
                if (!_runtime.Codec.TryRead(contextBytes, now, out request, out var error))
                {
                    throw Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: {error}");
                }

                if (!callerBytes.IsEmpty)
                {
                    if (!CallerIds.IsValid(callerBytes))
                    {
                        throw Invalid($"Header '{CiceroMetadataKeys.Context}' is malformed: the caller id after the context must be 1-{CallerIds.MaxLength} printable ASCII characters without spaces.");
                    }

                    caller = _callers.Get(callerBytes);
                }

                break;
        }

        if (request is not null)
        {
            if (request.GetRemainingBudget(_runtime.TimeProvider) is { } remaining && remaining <= TimeSpan.Zero)
            {
                // The end-to-end deadline passed on the way here: nothing this call does can still count.
                throw Dropped(context, DropReason.DeadlineExpired, "the request's end-to-end deadline passed before this hop");
            }

            return (request, caller, false);
        }

        var workflow = _options.Classifier.Classify(context);
        var deadline = _options.DeadlineSelector?.Invoke(context, workflow)
            ?? (context.Deadline != DateTime.MaxValue ? context.Deadline - _runtime.TimeProvider.GetUtcNow().UtcDateTime : _options.DefaultDeadline);
        if (deadline <= TimeSpan.Zero)
        {
            // The caller's deadline passed before admission (a timeout of a few nanoseconds, or time spent in the
            // transport): nothing can finish in time, and a context cannot carry a δ that is not positive.
            throw Dropped(context, DropReason.DeadlineExpired, "the call's deadline passed before it was admitted");
        }

        return (_runtime.StartRequest(workflow, deadline), caller, true);
    }

    private void End(ServerCallContext context, AdmittedCall call)
    {
        var othersInFlight = Interlocked.Decrement(ref _inFlight);
        var serviceTime = _runtime.TimeProvider.GetElapsedTime(call.AdmittedAt);
        _instanceBytes ??= CallerIds.Encode(_instance.Id, "instance id");
        var instance = call.IsUntrusted && !_options.ExposeInstanceIdToUntrustedCallers ? [] : _instanceBytes;
        context.ResponseTrailers.Add(
            CiceroMetadataKeys.Result,
            TrailerCodec.Encode(call.Request.Progress.Current, othersInFlight, serviceTime, _options.BackgroundActivity?.Invoke() ?? 0, instance));
        _runtime.CompleteRequest(call.Request, serviceTime, call.IsEntry);
    }

    private RpcException Dropped(ServerCallContext context, DropReason reason, string? detail)
    {
        _drops?.OnDrop(context.Method, _instance.ServiceName, reason);
        var tag = DropReasonNames.ToWire(reason);
        var trailers = new Metadata { { CiceroMetadataKeys.DropReason, tag } };

        // The result trailer names this instance on a drop too: the caller counts the call towards the instance that
        // refused it (its share f of calls per instance), not towards an unknown one, which would inflate the rates
        // it derives from this instance's answer. No progress: nothing was served.
        _instanceBytes ??= CallerIds.Encode(_instance.Id, "instance id");
        var untrusted = _options.IsEntryPoint && !IsTrusted(context);
        var instance = untrusted && !_options.ExposeInstanceIdToUntrustedCallers ? [] : _instanceBytes;
        trailers.Add(CiceroMetadataKeys.Result, TrailerCodec.Encode(default, Interlocked.Read(ref _inFlight), TimeSpan.Zero, _options.BackgroundActivity?.Invoke() ?? 0, instance));
        var message = detail is null ? $"Request dropped by Cicero at {_instance.ServiceName}: {tag}." : $"Request dropped by Cicero at {_instance.ServiceName}: {tag} ({detail}).";
        return new RpcException(new Status(DropReasonNames.ToStatusCode(reason), message), trailers);
    }

    /// <summary>A downstream's drop, re-raised as this service's own: the downstream's trailers (its ids) stay behind.</summary>
    private RpcException DownstreamDropped(ServerCallContext context, RpcException downstream)
    {
        var detail = downstream.Trailers.GetValue(CiceroMetadataKeys.DropReason);
        return Dropped(context, DropReason.DownstreamDropped, $"a downstream call was dropped: {detail}");
    }

    private static bool IsDownstreamDrop(RpcException ex) => ex.Trailers.Get(CiceroMetadataKeys.DropReason) is not null;

    /// <summary>A downstream call's failure that escapes a handler would hand its callee's result trailer to this caller.</summary>
    private static bool CarriesResult(RpcException ex) => ex.Trailers.Get(CiceroMetadataKeys.Result) is not null;

    /// <summary>The same failure without the callee's result trailer: this call's own is the one its caller reads.</summary>
    private static RpcException WithoutResult(RpcException ex)
    {
        var trailers = new Metadata();
        foreach (var entry in ex.Trailers)
        {
            if (!string.Equals(entry.Key, CiceroMetadataKeys.Result, StringComparison.Ordinal))
            {
                trailers.Add(entry);
            }
        }

        return new RpcException(ex.Status, trailers, ex.Message);
    }

    private bool IsTrusted(ServerCallContext context) =>
        !_options.IsEntryPoint || _options.TrustIncomingContext || (_options.IsTrustedCaller?.Invoke(context) ?? false);

    private bool IsExempt(ServerCallContext context)
    {
        var method = context.Method;
        if (method.StartsWith(RateExchange.RateExchangeService.MethodPrefix, StringComparison.Ordinal))
        {
            return true;
        }

        var exempt = _exempt;
        for (var i = 0; i < exempt.Length; i++)
        {
            if (method.StartsWith(exempt[i], StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }

    private static RpcException Invalid(string message) => new(new Status(StatusCode.InvalidArgument, message));

    private readonly record struct AdmittedCall(RequestContext Request, long AdmittedAt, bool IsEntry, bool IsUntrusted);
}
