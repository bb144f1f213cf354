// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>Starts calls of the four kinds; a channel's invoker sends them, an intercepting one wraps another.</summary>
public abstract class CallInvoker
{
    /// <summary>Starts a unary call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="method">The method.</param>
    /// <param name="options">The call options.</param>
    /// <param name="request">The request.</param>
    /// <returns>The call.</returns>
    public abstract AsyncUnaryCall<TResponse> AsyncUnaryCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options, TRequest request);

    /// <summary>Starts a server-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="method">The method.</param>
    /// <param name="options">The call options.</param>
    /// <param name="request">The request.</param>
    /// <returns>The call.</returns>
    public abstract AsyncServerStreamingCall<TResponse> AsyncServerStreamingCall<TRequest, TResponse>(
        Method<TRequest, TResponse> method,
        CallOptions options,
        TRequest request);

    /// <summary>Starts a client-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="method">The method.</param>
    /// <param name="options">The call options.</param>
    /// <returns>The call.</returns>
    public abstract AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options);

    /// <summary>Starts a duplex-streaming call.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="method">The method.</param>
    /// <param name="options">The call options.</param>
    /// <returns>The call.</returns>
    public abstract AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options);
}
