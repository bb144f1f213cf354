// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Logging;
using Cicero.Grpc.Telemetry;
using Cicero.Runtime;
using Grpc.Core;
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
/// <remarks>
/// <para>
/// One call's states: exempt (passed through, nothing counted) | begun (context read or started; a malformed header is
/// <see cref="StatusCode.InvalidArgument"/>, an expired deadline a drop) -> admitted or dropped (a drop happens before
/// any handler code runs) -> handler running (the context ambient) -> ended. Invariants: an admitted call is counted in
/// <see cref="InFlight"/> from its admission until its end, and ends exactly once (its result trailer written and its
/// time fed to the local model), however the handler finishes; a call that escapes with a downstream's result trailer
/// loses it, so the caller only ever reads this instance's; an untrusted entry caller's context is never decoded.
/// </para>
/// <para>
/// Files: this one holds the unary path (with its allocation-free synchronous case); <c>.Streaming.cs</c> the three
/// streaming kinds; <c>.Admission.cs</c> admitting; <c>.Trailers.cs</c> ending a call and shaping drops. Reading or
/// starting the context is <see cref="IncomingRequests"/>'s; how failures read to the caller <see cref="CallerFacingErrors"/>'s.
/// </para>
/// </remarks>
public sealed partial class CiceroServerInterceptor : Interceptor
{
    private readonly CiceroRuntime _runtime;
    private readonly CiceroGrpcOptions _options;
    private readonly CiceroInstance _instance;
    private readonly WorkflowTagLimiter _tags;
    private readonly IncomingRequests _incoming;
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
        _incoming = new IncomingRequests(runtime, options);
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
        if (_incoming.IsExempt(context))
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
        catch (Exception ex)
        {
            End(context, call, ex);
            activity?.Dispose();
            if (CallerFacingErrors.IsCiceroFailure(ex))
            {
                throw AsCallerSees(context, ex);
            }

            throw;
        }
        finally
        {
            // The handler's own flow keeps the context (its state machine captured it); this frame's caller must not.
            CiceroContext.Current = previous;
        }

        if (response.IsCompletedSuccessfully)
        {
            End(context, call, failure: null);
            activity?.Dispose();
            return response;
        }

        return UnaryAwaitHandlerAsync(response, call, context, activity);
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
            Exception? failure = null;
            try
            {
                return await continuation(request, context).ConfigureAwait(false);
            }
            catch (Exception ex) when ((failure = ex) is not null && CallerFacingErrors.IsCiceroFailure(ex))
            {
                throw AsCallerSees(context, ex);
            }
            finally
            {
                End(context, call, failure);
            }
        }
    }

    private async Task<TResponse> UnaryAwaitHandlerAsync<TResponse>(Task<TResponse> response, AdmittedCall call, ServerCallContext context, System.Diagnostics.Activity? activity)
    {
        using (activity)
        {
            Exception? failure = null;
            try
            {
                return await response.ConfigureAwait(false);
            }
            catch (Exception ex) when ((failure = ex) is not null && CallerFacingErrors.IsCiceroFailure(ex))
            {
                throw AsCallerSees(context, ex);
            }
            finally
            {
                End(context, call, failure);
            }
        }
    }

    private readonly record struct AdmittedCall(RequestContext Request, long AdmittedAt, bool IsEntry, bool IsUntrusted);
}
