// SPDX-License-Identifier: Apache-2.0

// The four continuation shapes belong together, like grpc-dotnet's; one file keeps them side by side.
namespace Cicero.Grpc.Client;

/// <summary>Continues a unary call to the next interceptor or the transport.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="request">The request.</param>
/// <param name="context">The call.</param>
/// <returns>The call.</returns>
public delegate AsyncUnaryCall<TResponse> AsyncUnaryCallContinuation<TRequest, TResponse>(TRequest request, ClientInterceptorContext<TRequest, TResponse> context);

/// <summary>Continues a server-streaming call.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="request">The request.</param>
/// <param name="context">The call.</param>
/// <returns>The call.</returns>
public delegate AsyncServerStreamingCall<TResponse> AsyncServerStreamingCallContinuation<TRequest, TResponse>(
    TRequest request,
    ClientInterceptorContext<TRequest, TResponse> context);

/// <summary>Continues a client-streaming call.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="context">The call.</param>
/// <returns>The call.</returns>
public delegate AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCallContinuation<TRequest, TResponse>(
    ClientInterceptorContext<TRequest, TResponse> context);

/// <summary>Continues a duplex-streaming call.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="context">The call.</param>
/// <returns>The call.</returns>
public delegate AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCallContinuation<TRequest, TResponse>(
    ClientInterceptorContext<TRequest, TResponse> context);
