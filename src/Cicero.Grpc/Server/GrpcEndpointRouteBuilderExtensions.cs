// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Cicero.Grpc.Server;

/// <summary>Maps gRPC methods onto ASP.NET Core endpoints (HTTP/2 POST to <c>/service/method</c>).</summary>
/// <remarks>
/// Interceptors are the <see cref="ServerInterceptor"/> services registered in dependency injection when the method is
/// mapped, in registration order. The returned builder takes the usual conventions, e.g.
/// <c>RequireAuthorization()</c>.
/// </remarks>
public static class GrpcEndpointRouteBuilderExtensions
{
    /// <summary>Maps a unary method.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="endpoints">The route builder.</param>
    /// <param name="method">The method; must be <see cref="MethodType.Unary"/>.</param>
    /// <param name="handler">The handler.</param>
    /// <returns>The endpoint's convention builder.</returns>
    public static IEndpointConventionBuilder MapGrpcUnary<TRequest, TResponse>(
        this IEndpointRouteBuilder endpoints,
        Method<TRequest, TResponse> method,
        UnaryServerMethod<TRequest, TResponse> handler) => Map(endpoints, method, MethodType.Unary, handler);

    /// <summary>Maps a client-streaming method.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="endpoints">The route builder.</param>
    /// <param name="method">The method; must be <see cref="MethodType.ClientStreaming"/>.</param>
    /// <param name="handler">The handler.</param>
    /// <returns>The endpoint's convention builder.</returns>
    public static IEndpointConventionBuilder MapGrpcClientStreaming<TRequest, TResponse>(
        this IEndpointRouteBuilder endpoints,
        Method<TRequest, TResponse> method,
        ClientStreamingServerMethod<TRequest, TResponse> handler) => Map(endpoints, method, MethodType.ClientStreaming, handler);

    /// <summary>Maps a server-streaming method.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="endpoints">The route builder.</param>
    /// <param name="method">The method; must be <see cref="MethodType.ServerStreaming"/>.</param>
    /// <param name="handler">The handler.</param>
    /// <returns>The endpoint's convention builder.</returns>
    public static IEndpointConventionBuilder MapGrpcServerStreaming<TRequest, TResponse>(
        this IEndpointRouteBuilder endpoints,
        Method<TRequest, TResponse> method,
        ServerStreamingServerMethod<TRequest, TResponse> handler) => Map(endpoints, method, MethodType.ServerStreaming, handler);

    /// <summary>Maps a duplex-streaming method.</summary>
    /// <typeparam name="TRequest">The request type.</typeparam>
    /// <typeparam name="TResponse">The response type.</typeparam>
    /// <param name="endpoints">The route builder.</param>
    /// <param name="method">The method; must be <see cref="MethodType.DuplexStreaming"/>.</param>
    /// <param name="handler">The handler.</param>
    /// <returns>The endpoint's convention builder.</returns>
    public static IEndpointConventionBuilder MapGrpcDuplexStreaming<TRequest, TResponse>(
        this IEndpointRouteBuilder endpoints,
        Method<TRequest, TResponse> method,
        DuplexStreamingServerMethod<TRequest, TResponse> handler) => Map(endpoints, method, MethodType.DuplexStreaming, handler);

    /// <summary>Maps a unary method without the registered interceptors (Cicero's own control-plane endpoints).</summary>
    internal static IEndpointConventionBuilder MapGrpcUnaryWithoutInterceptors<TRequest, TResponse>(
        this IEndpointRouteBuilder endpoints,
        Method<TRequest, TResponse> method,
        UnaryServerMethod<TRequest, TResponse> handler) => Map(endpoints, method, MethodType.Unary, handler, intercept: false);

    private static IEndpointConventionBuilder Map<TRequest, TResponse>(
        IEndpointRouteBuilder endpoints,
        Method<TRequest, TResponse> method,
        MethodType expected,
        Delegate handler,
        bool intercept = true)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        ArgumentNullException.ThrowIfNull(method);
        ArgumentNullException.ThrowIfNull(handler);
        if (method.Type != expected)
        {
            throw new ArgumentException($"Method {method.FullName} is {method.Type}, but the handler serves {expected} calls.", nameof(handler));
        }

        var services = endpoints.ServiceProvider;
        var options = services.GetService<IOptions<GrpcServerOptions>>()?.Value ?? new GrpcServerOptions();
        var interceptors = intercept ? services.GetServices<ServerInterceptor>().ToArray() : [];
        var timeProvider = services.GetService<TimeProvider>() ?? TimeProvider.System;
        var callHandler = new ServerCallHandler<TRequest, TResponse>(method, handler, interceptors, options, timeProvider);
        return endpoints.MapPost(method.FullName, callHandler.HandleAsync).WithDisplayName($"gRPC {method.FullName}");
    }
}
