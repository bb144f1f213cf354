// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.LoadBalancing;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.Server;
using Cicero.Policies.Registration;
using Cicero.Runtime;
using Grpc.AspNetCore.Server;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers Cicero in an ASP.NET Core gRPC service.</summary>
public static class CiceroServiceCollectionExtensions
{
    /// <summary>
    /// Adds Cicero to a grpc-dotnet service: the runtime; <see cref="CiceroServerInterceptor"/> as a global interceptor
    /// of <c>AddGrpc</c>, so every <c>MapGrpcService&lt;T&gt;()</c> endpoint gets context, admission and trailers; the
    /// Cicero load-balancing policies (<c>c3</c> and the other replica selectors) and the <c>cicero:///service</c>
    /// resolver for <c>GrpcChannel</c>s built from this container; the rate-exchange service (map it with
    /// <c>MapCiceroRateExchange()</c>) and its control loop. Options are validated at start-up, and Cicero runs on a
    /// snapshot of them taken then: later writes to <c>IOptions&lt;CiceroGrpcOptions&gt;.Value</c> change nothing.
    /// </summary>
    /// <param name="services">The services.</param>
    /// <param name="configure">Sets the options; <see cref="CiceroGrpcOptions.ServiceName"/> is required.</param>
    /// <returns>A builder for resources, policies and downstream services.</returns>
    public static ICiceroBuilder AddCicero(this IServiceCollection services, Action<CiceroGrpcOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.AddOptions<CiceroGrpcOptions>().Configure(configure);
        return AddCiceroServices(services);
    }

    /// <summary>
    /// Adds Cicero as <see cref="AddCicero(IServiceCollection, Action{CiceroGrpcOptions})"/> does, with the options bound
    /// from a configuration section (for example <c>builder.Configuration.GetSection("Cicero")</c> of
    /// <c>appsettings.json</c>), then <paramref name="configure"/> for what configuration cannot express (a classifier,
    /// delegates). Options are validated when the host starts (<c>ValidateOnStart</c>), and every problem is named by
    /// its path in the section (<c>Cicero:Resources[0]:Capacity must be at least 1; was 0</c>).
    /// </summary>
    /// <param name="services">The services.</param>
    /// <param name="configuration">The section holding Cicero's options (keys as the property names: <c>ServiceName</c>, <c>Core:Admission:QueueLimit</c>, <c>Resources:0:Name</c>, ...).</param>
    /// <param name="configure">Further settings, applied after binding; optional.</param>
    /// <returns>A builder for resources, policies and downstream services.</returns>
    public static ICiceroBuilder AddCicero(this IServiceCollection services, IConfiguration configuration, Action<CiceroGrpcOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        var options = services.AddOptions<CiceroGrpcOptions>().Bind(configuration);
        if (configure is not null)
        {
            options.Configure(configure);
        }

        services.TryAddSingleton(new CiceroConfigurationPath(configuration is IConfigurationSection section ? section.Path : string.Empty));
        return AddCiceroServices(services);
    }

    private static CiceroBuilder AddCiceroServices(IServiceCollection services)
    {
        services.AddGrpc();
        services.AddOptions<CiceroGrpcOptions>().ValidateOnStart();
        services.TryAddSingleton(PolicyCatalog.Default);
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<CiceroGrpcOptions>, CiceroGrpcOptionsValidator>());
        services.TryAddSingleton(Snapshot);
        services.TryAddSingleton(sp => new CiceroInstance(sp.GetRequiredService<CiceroGrpcOptions>(), sp));
        services.TryAddSingleton(sp => new GrpcDownstreamRateSource(
            sp.GetRequiredService<CiceroGrpcOptions>().RateExchange.SharedToken,
            address => GrpcChannel.ForAddress(address, new GrpcChannelOptions { LoggerFactory = sp.GetService<ILoggerFactory>() }),
            sp.GetService<ILogger<GrpcDownstreamRateSource>>(),
            sp.GetService<TimeProvider>()));
        services.TryAddSingleton(CreateRuntime);
        services.TryAddSingleton<RateExchangeService>();
        services.TryAddSingleton(_ => new Cicero.Grpc.Telemetry.WorkflowTagLimiter());

        // A second AddCicero (a library and the app both calling it) configures the same options; it must not put
        // the interceptor into the pipeline twice, which would admit and count every call twice.
        if (!services.Any(d => d.ServiceType == typeof(CiceroServerInterceptor)))
        {
            services.AddSingleton<CiceroServerInterceptor>();
            services.Configure<GrpcServiceOptions>(o => o.Interceptors.Add<CiceroServerInterceptor>());
            services.AddSingleton<ResolverFactory, CiceroDownstreamResolverFactory>();
            services.AddCiceroLoadBalancing();
            services.AddHostedService<CiceroHostedService>();
        }

        return new CiceroBuilder(services);
    }

    /// <summary>
    /// Registers Cicero's load-balancing policies (one per replica selector: <c>c3</c>, <c>c3-background</c>,
    /// <c>least-outstanding</c>, <c>p2c-peak-ewma</c>, <c>dynamic-snitch</c>, ...) as grpc-dotnet
    /// <see cref="LoadBalancerFactory"/> services, for clients that do not run Cicero's server side. A
    /// <c>GrpcChannel</c> whose <see cref="GrpcChannelOptions.ServiceProvider"/> is this container selects one with
    /// <c>new LoadBalancingConfig("c3")</c>. <c>AddCicero</c> calls it.
    /// </summary>
    /// <param name="services">The services.</param>
    /// <returns>The services.</returns>
    public static IServiceCollection AddCiceroLoadBalancing(this IServiceCollection services)
    {
        ArgumentNullException.ThrowIfNull(services);
        if (services.Any(d => d.ServiceType == typeof(CiceroLoadBalancingMarker)))
        {
            return services;
        }

        services.AddSingleton<CiceroLoadBalancingMarker>();
        foreach (var name in PolicyCatalog.Default.ReplicaSelectorNames)
        {
            AddBalancer(services, name);
        }

        return services;
    }

    /// <summary>Registers the load-balancing policy of one replica selector, found by name in the container's catalog.</summary>
    internal static void AddBalancer(IServiceCollection services, string name) =>
        services.AddSingleton<LoadBalancerFactory>(sp => new ReplicaSelectorBalancerFactory(
            (sp.GetService<PolicyCatalog>() ?? PolicyCatalog.Default).GetReplicaSelector(name),
            null,
            sp.GetService<TimeProvider>()));

    /// <summary>
    /// The options Cicero runs on: built and validated once, by the options factory, into an object of their own, with
    /// their resource and downstream entries copied. A later write to <c>IOptions&lt;CiceroGrpcOptions&gt;.Value</c>, or
    /// to an entry object a configure delegate added and kept, reaches none of Cicero's parts, and none of them writes to it.
    /// </summary>
    private static CiceroGrpcOptions Snapshot(IServiceProvider services)
    {
        var options = services.GetRequiredService<IOptionsFactory<CiceroGrpcOptions>>().Create(Microsoft.Extensions.Options.Options.DefaultName);
        for (var i = 0; i < options.Resources.Count; i++)
        {
            options.Resources[i] = options.Resources[i].Copy();
        }

        for (var i = 0; i < options.Downstreams.Count; i++)
        {
            options.Downstreams[i] = options.Downstreams[i].Copy();
        }

        return options;
    }

    /// <summary>Builds the process's runtime from the validated options and the catalog (the one <see cref="CiceroRuntimeBuilder"/> path).</summary>
    private static CiceroRuntime CreateRuntime(IServiceProvider services)
    {
        var options = services.GetRequiredService<CiceroGrpcOptions>();
        var catalog = services.GetRequiredService<PolicyCatalog>();
        var builder = new CiceroRuntimeBuilder
        {
            Options = options.Core,
            TimeProvider = services.GetService<TimeProvider>() ?? TimeProvider.System,
            RateLimitPolicy = catalog.GetRateLimitPolicy(options.RateLimitPolicy).Create,
            DropPolicy = catalog.GetDropPolicy(options.DropPolicy).Create,
            RateSource = new InstanceRateSource(services.GetRequiredService<GrpcDownstreamRateSource>(), services.GetRequiredService<CiceroInstance>()),
        };
        foreach (var resource in options.Resources)
        {
            builder.AddResource(
                new Cicero.Resources.ResourceSemaphoreOptions
                {
                    Name = resource.Name,
                    Capacity = resource.Capacity,
                    MaxQueueLength = resource.MaxQueueLength,
                    DropExpiredWaiters = resource.DropExpiredWaiters,
                },
                catalog.GetScheduler(resource.Scheduler).Create);
        }

        return builder.Build();
    }

    /// <summary>Marks that the balancer policies are registered, so that a second call adds none twice.</summary>
    private sealed class CiceroLoadBalancingMarker;
}
