// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Server;
using Cicero.Runtime;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>
/// The services <c>AddCicero</c> registers, in a container without a server: the interceptor exactly as grpc-dotnet
/// would get it, to be driven with <see cref="TestServerCallContext"/>. No hosted service runs, so nothing happens in
/// the background; the instance id is configured because there is no listening address to take it from.
/// </summary>
internal sealed class CiceroServices : IDisposable
{
    public const string InstanceId = "http://127.0.0.1:1";

    private readonly ServiceProvider _services;

    public CiceroServices(Action<CiceroGrpcOptions> configure, TimeProvider? timeProvider = null)
    {
        var services = new ServiceCollection();
        if (timeProvider is not null)
        {
            services.AddSingleton(timeProvider);
        }

        services.AddCicero(o =>
        {
            o.ServiceName = "under-test";
            o.InstanceId = InstanceId;
            o.RateExchange.RunControlLoop = false;
            configure(o);
        });
        _services = services.BuildServiceProvider();
    }

    public IServiceProvider Services => _services;

    public CiceroRuntime Runtime => _services.GetRequiredService<CiceroRuntime>();

    public CiceroServerInterceptor Interceptor => _services.GetRequiredService<CiceroServerInterceptor>();

    public void Dispose() => _services.Dispose();
}
