// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Server;

/// <summary>
/// Wraps server calls of all four kinds; each method passes the call on with <c>continuation</c>, or ends it by
/// throwing an <see cref="RpcException"/>. The defaults pass every call through.
/// </summary>
/// <remarks>Registered interceptors run in registration order, the first outermost; one instance serves all calls.</remarks>
public abstract class ServerInterceptor
{
    /// <summary>Wraps a unary call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="request">The request.</param>
    /// <param name="context">The call.</param>
    /// <param name="continuation">The next interceptor or the handler.</param>
    /// <returns>The response.</returns>
    public virtual Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request,
        ServerCallContext context,
        UnaryServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        return continuation(request, context);
    }

    /// <summary>Wraps a client-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="requestStream">The requests.</param>
    /// <param name="context">The call.</param>
    /// <param name="continuation">The next interceptor or the handler.</param>
    /// <returns>The response.</returns>
    public virtual Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream,
        ServerCallContext context,
        ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        return continuation(requestStream, context);
    }

    /// <summary>Wraps a server-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="request">The request.</param>
    /// <param name="responseStream">Where responses go.</param>
    /// <param name="context">The call.</param>
    /// <param name="continuation">The next interceptor or the handler.</param>
    /// <returns>Completes when the call is done.</returns>
    public virtual Task ServerStreamingServerHandler<TRequest, TResponse>(
        TRequest request,
        IAsyncStreamWriter<TResponse> responseStream,
        ServerCallContext context,
        ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        return continuation(request, responseStream, context);
    }

    /// <summary>Wraps a duplex-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="requestStream">The requests.</param>
    /// <param name="responseStream">Where responses go.</param>
    /// <param name="context">The call.</param>
    /// <param name="continuation">The next interceptor or the handler.</param>
    /// <returns>Completes when the call is done.</returns>
    public virtual Task DuplexStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream,
        IAsyncStreamWriter<TResponse> responseStream,
        ServerCallContext context,
        DuplexStreamingServerMethod<TRequest, TResponse> continuation)
    {
        ArgumentNullException.ThrowIfNull(continuation);
        return continuation(requestStream, responseStream, context);
    }
}
