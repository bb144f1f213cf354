// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Runtime;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Cicero's server path without Kestrel or sockets: the services <c>AddCicero</c> registers, and
/// <see cref="ServerCallHandler{TRequest,TResponse}"/>s built with the registered interceptors exactly as
/// <c>MapGrpc*</c> builds them, to be driven with <see cref="InProcessCall"/>.
/// </summary>
/// <remarks>
/// The hosted services (rate-exchange loop) are never started: nothing runs in the background, so a test controls
/// every call. <see cref="CiceroGrpcOptions.InstanceId"/> is set because there is no listening address to take it from.
/// </remarks>
internal sealed class InProcessServer : IDisposable
{
    private readonly ServiceProvider _services;
    private readonly ServerInterceptor[] _interceptors;
    private readonly GrpcServerOptions _grpcOptions;

    public InProcessServer(Action<CiceroGrpcOptions> configure, TimeProvider? timeProvider = null, GrpcServerOptions? grpcOptions = null)
    {
        var services = new ServiceCollection();
        if (timeProvider is not null)
        {
            services.AddSingleton(timeProvider);
        }

        services.AddCicero(o =>
        {
            o.ServiceName = "in-process";
            o.InstanceId = "http://127.0.0.1:1";
            o.RateExchange.RunControlLoop = false;
            configure(o);
        });
        _services = services.BuildServiceProvider();
        _interceptors = [.. _services.GetServices<ServerInterceptor>()];
        _grpcOptions = grpcOptions ?? new GrpcServerOptions();
        TimeProvider = timeProvider ?? TimeProvider.System;
    }

    public IServiceProvider Services => _services;

    public CiceroRuntime Runtime => _services.GetRequiredService<CiceroRuntime>();

    public CiceroServerInterceptor Interceptor => _services.GetRequiredService<CiceroServerInterceptor>();

    public TimeProvider TimeProvider { get; }

    /// <summary>Builds the handler of one method, with the interceptors, as endpoint mapping does.</summary>
    public ServerCallHandler<TRequest, TResponse> Map<TRequest, TResponse>(Method<TRequest, TResponse> method, Delegate handler) =>
        new(method, handler, _interceptors, _grpcOptions, TimeProvider);

    public void Dispose() => _services.Dispose();
}
