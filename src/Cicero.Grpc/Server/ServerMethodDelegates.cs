// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

// The four handler shapes belong together, like grpc-dotnet's; one file keeps them side by side.
namespace Cicero.Grpc.Server;

/// <summary>Handles a unary call.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="request">The request.</param>
/// <param name="context">The call.</param>
/// <returns>The response.</returns>
public delegate Task<TResponse> UnaryServerMethod<TRequest, TResponse>(TRequest request, ServerCallContext context);

/// <summary>Handles a client-streaming call.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="requestStream">The requests.</param>
/// <param name="context">The call.</param>
/// <returns>The response.</returns>
public delegate Task<TResponse> ClientStreamingServerMethod<TRequest, TResponse>(IAsyncStreamReader<TRequest> requestStream, ServerCallContext context);

/// <summary>Handles a server-streaming call.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="request">The request.</param>
/// <param name="responseStream">Where responses go.</param>
/// <param name="context">The call.</param>
/// <returns>Completes when the call is done.</returns>
public delegate Task ServerStreamingServerMethod<TRequest, TResponse>(TRequest request, IAsyncStreamWriter<TResponse> responseStream, ServerCallContext context);

/// <summary>Handles a duplex-streaming call.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="requestStream">The requests.</param>
/// <param name="responseStream">Where responses go.</param>
/// <param name="context">The call.</param>
/// <returns>Completes when the call is done.</returns>
public delegate Task DuplexStreamingServerMethod<TRequest, TResponse>(
    IAsyncStreamReader<TRequest> requestStream,
    IAsyncStreamWriter<TResponse> responseStream,
    ServerCallContext context);
