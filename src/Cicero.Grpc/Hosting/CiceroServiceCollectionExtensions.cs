// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Server;
using Cicero.Policies.Registration;
using Cicero.Runtime;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace Cicero.Grpc.Hosting;

/// <summary>Registers Cicero in an ASP.NET Core service.</summary>
public static class CiceroServiceCollectionExtensions
{
    /// <summary>
    /// Adds Cicero: the runtime, the server interceptor (admission, context, trailers), the downstream channels with the
    /// client interceptor, the rate-exchange service and its control loop. Options are validated at start-up.
    /// </summary>
    /// <param name="services">The services.</param>
    /// <param name="configure">Sets the options; <see cref="CiceroGrpcOptions.ServiceName"/> is required.</param>
    /// <returns>A builder for resources, policies and downstream services.</returns>
    public static ICiceroBuilder AddCicero(this IServiceCollection services, Action<CiceroGrpcOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.AddOptions<CiceroGrpcOptions>().Configure(configure).ValidateOnStart();
        services.TryAddSingleton(PolicyCatalog.Default);
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<CiceroGrpcOptions>, CiceroGrpcOptionsValidator>());
        services.TryAddSingleton(sp => sp.GetRequiredService<IOptions<CiceroGrpcOptions>>().Value);
        services.TryAddSingleton(sp => new CiceroInstance(sp.GetRequiredService<CiceroGrpcOptions>(), sp));
        services.TryAddSingleton(sp => new GrpcDownstreamRateSource(sp.GetRequiredService<CiceroGrpcOptions>().RateExchange.SharedToken));
        services.TryAddSingleton(CreateRuntime);
        services.TryAddSingleton<CiceroDownstreams>();
        services.TryAddSingleton<RateExchangeService>();
        services.TryAddSingleton(_ => new Telemetry.WorkflowTagLimiter());
        // A second AddCicero (a library and the app both calling it) configures the same options; it must not put
        // the interceptor into the pipeline twice, which would admit and count every call twice.
        if (!services.Any(d => d.ServiceType == typeof(CiceroServerInterceptor)))
        {
            services.AddSingleton<CiceroServerInterceptor>();
            services.AddSingleton<ServerInterceptor>(sp => sp.GetRequiredService<CiceroServerInterceptor>());
        }
        services.AddHostedService<CiceroHostedService>();
        return new CiceroBuilder(services);
    }

    private static CiceroRuntime CreateRuntime(IServiceProvider services)
    {
        var options = services.GetRequiredService<CiceroGrpcOptions>();
        var catalog = services.GetRequiredService<PolicyCatalog>();
        var runtime = CiceroRuntime.Create(
            options.Core,
            services.GetService<TimeProvider>() ?? TimeProvider.System,
            catalog.GetRateLimitPolicy(options.RateLimitPolicy),
            catalog.GetDropPolicy(options.DropPolicy),
            services.GetRequiredService<GrpcDownstreamRateSource>());
        foreach (var resource in options.Resources)
        {
            var factory = catalog.GetScheduler(resource.Scheduler);
            var scheduler = factory.Create(new Cicero.Resources.SubtaskSchedulerContext(
                resource.Name, resource.Capacity, runtime.TimeProvider.TimestampFrequency, runtime.Registry));
            runtime.AddResource(
                new Cicero.Resources.ResourceSemaphoreOptions
                {
                    Name = resource.Name,
                    Capacity = resource.Capacity,
                    MaxQueueLength = resource.MaxQueueLength,
                    DropExpiredWaiters = resource.DropExpiredWaiters,
                },
                scheduler);
        }

        return runtime;
    }
}
