// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>What a client interceptor knows of the call it wraps; it passes a changed copy on to change the call.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
/// <param name="Method">The method.</param>
/// <param name="Options">The call options.</param>
public readonly record struct ClientInterceptorContext<TRequest, TResponse>(Method<TRequest, TResponse> Method, CallOptions Options);
