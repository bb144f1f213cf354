// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Client;

/// <summary>Wraps outgoing calls of all four kinds; the defaults pass every call through.</summary>
/// <remarks>Attach with <see cref="CallInvokerExtensions.Intercept(CallInvoker, ClientInterceptor[])"/>.</remarks>
public abstract class ClientInterceptor
{
    /// <summary>Wraps a unary call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="request">The request.</param>
    /// <param name="context">The call.</param>
    /// <param name="continuation">The next interceptor or the transport.</param>
    /// <returns>The call.</returns>
    public virtual AsyncUnaryCall<TResponse> AsyncUnaryCall<TRequest, TResponse>(
        TRequest request,
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncUnaryCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        return continuation(request, context);
    }

    /// <summary>Wraps a server-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="request">The request.</param>
    /// <param name="context">The call.</param>
    /// <param name="continuation">The next interceptor or the transport.</param>
    /// <returns>The call.</returns>
    public virtual AsyncServerStreamingCall<TResponse> AsyncServerStreamingCall<TRequest, TResponse>(
        TRequest request,
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncServerStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        return continuation(request, context);
    }

    /// <summary>Wraps a client-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="context">The call.</param>
    /// <param name="continuation">The next interceptor or the transport.</param>
    /// <returns>The call.</returns>
    public virtual AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCall<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncClientStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        return continuation(context);
    }

    /// <summary>Wraps a duplex-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="context">The call.</param>
    /// <param name="continuation">The next interceptor or the transport.</param>
    /// <returns>The call.</returns>
    public virtual AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCall<TRequest, TResponse>(
        ClientInterceptorContext<TRequest, TResponse> context,
        AsyncDuplexStreamingCallContinuation<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        return continuation(context);
    }
}
