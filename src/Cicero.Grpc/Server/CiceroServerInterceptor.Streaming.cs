// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Telemetry;
using Grpc.Core;

namespace Cicero.Grpc.Server;

/// <summary>The streaming call kinds: each admitted as a whole, with the context ambient for the handler's whole stream.</summary>
public sealed partial class CiceroServerInterceptor
{
    /// <inheritdoc />
    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream,
        ServerCallContext context,
        ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        if (_incoming.IsExempt(context))
        {
            return await continuation(requestStream, context).ConfigureAwait(false);
        }

        using var activity = CiceroActivities.StartServerActivity(context.Method, default, _tags);
        var call = await BeginAsync(context, activity).ConfigureAwait(false);
        CiceroContext.Current = call.Request;
        Exception? failure = null;
        try
        {
            return await continuation(requestStream, context).ConfigureAwait(false);
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

    /// <inheritdoc />
    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(
        TRequest request,
        IServerStreamWriter<TResponse> responseStream,
        ServerCallContext context,
        ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(continuation);
        if (_incoming.IsExempt(context))
        {
            await continuation(request, responseStream, context).ConfigureAwait(false);
            return;
        }

        using var activity = CiceroActivities.StartServerActivity(context.Method, default, _tags);
        var call = await BeginAsync(context, activity).ConfigureAwait(false);
        CiceroContext.Current = call.Request;
        Exception? failure = null;
        try
        {
            await continuation(request, responseStream, context).ConfigureAwait(false);
        }
        catch (Exception ex) when ((failure = ex) is not null && CallerFacingErrors.IsCiceroFailure(ex))
        {
            throw AsCallerSees(context, ex);
        }
        finally
        {
            // A response stream usually ends when its caller stops reading: no outcome for the goodput limit.
            End(context, call, failure, countsOutcome: false);
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
        if (_incoming.IsExempt(context))
        {
            await continuation(requestStream, responseStream, context).ConfigureAwait(false);
            return;
        }

        using var activity = CiceroActivities.StartServerActivity(context.Method, default, _tags);
        var call = await BeginAsync(context, activity).ConfigureAwait(false);
        CiceroContext.Current = call.Request;
        Exception? failure = null;
        try
        {
            await continuation(requestStream, responseStream, context).ConfigureAwait(false);
        }
        catch (Exception ex) when ((failure = ex) is not null && CallerFacingErrors.IsCiceroFailure(ex))
        {
            throw AsCallerSees(context, ex);
        }
        finally
        {
            // A response stream usually ends when its caller stops reading: no outcome for the goodput limit.
            End(context, call, failure, countsOutcome: false);
        }
    }
}
