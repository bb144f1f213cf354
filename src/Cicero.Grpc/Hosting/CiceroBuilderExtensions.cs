// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Hosting;
using Cicero.Policies.Registration;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Fluent configuration of Cicero; every setting is validated at start-up.</summary>
public static class CiceroBuilderExtensions
{
    /// <summary>Adds a resource guarded by a semaphore whose waiters a named scheduler orders.</summary>
    /// <param name="builder">The builder.</param>
    /// <param name="name">The resource's name.</param>
    /// <param name="capacity">The number of permits.</param>
    /// <param name="scheduler">The scheduler's name (<c>fifo</c>, <c>drr</c>, <c>edf</c>, <c>lstf</c>, ...).</param>
    /// <param name="maxQueueLength">The most sub-tasks allowed to wait.</param>
    /// <returns>The builder.</returns>
    public static ICiceroBuilder AddResource(this ICiceroBuilder builder, string name, int capacity, string scheduler = "fifo", int maxQueueLength = 1024)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.Configure<CiceroGrpcOptions>(o => o.Resources.Add(new CiceroResourceOptions
        {
            Name = name,
            Capacity = capacity,
            Scheduler = scheduler,
            MaxQueueLength = maxQueueLength,
        }));
        return builder;
    }

    /// <summary>Adds a resource with every option (for example <see cref="CiceroResourceOptions.DropExpiredWaiters"/>).</summary>
    /// <param name="builder">The builder.</param>
    /// <param name="options">The resource's options; validated at start-up with the rest.</param>
    /// <returns>The builder.</returns>
    public static ICiceroBuilder AddResource(this ICiceroBuilder builder, CiceroResourceOptions options)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(options);
        builder.Services.Configure<CiceroGrpcOptions>(o => o.Resources.Add(options));
        return builder;
    }

    /// <summary>
    /// Adds a downstream service that this one calls: its instances are polled for admission rates, and a client made
    /// with <c>AddGrpcClient&lt;T&gt;().AddCiceroDownstream(name)</c> calls them through <paramref name="loadBalancingPolicy"/>.
    /// </summary>
    /// <param name="builder">The builder.</param>
    /// <param name="name">The service's name.</param>
    /// <param name="addresses">The instances' addresses.</param>
    /// <param name="loadBalancingPolicy">The load-balancing policy: <c>c3</c> (default), any replica selector, or grpc-dotnet's <c>round_robin</c> and <c>pick_first</c>.</param>
    /// <returns>The builder.</returns>
    public static ICiceroBuilder AddDownstream(this ICiceroBuilder builder, string name, IEnumerable<string> addresses, string loadBalancingPolicy = "c3")
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(addresses);
        var list = addresses.ToArray();
        builder.Services.Configure<CiceroGrpcOptions>(o =>
        {
            var downstream = new CiceroDownstreamOptions { Name = name, LoadBalancingPolicy = loadBalancingPolicy };
            foreach (var address in list)
            {
                downstream.Addresses.Add(address);
            }

            o.Downstreams.Add(downstream);
        });
        return builder;
    }

    /// <summary>Chooses the local rate-limit policy by name (<c>pass-through</c>, <c>bottleneck-fairness</c>, <c>static</c>, ...).</summary>
    /// <param name="builder">The builder.</param>
    /// <param name="name">The policy's name.</param>
    /// <returns>The builder.</returns>
    public static ICiceroBuilder UseRateLimitPolicy(this ICiceroBuilder builder, string name)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.Configure<CiceroGrpcOptions>(o => o.RateLimitPolicy = name);
        return builder;
    }

    /// <summary>Chooses the drop policy by name (<c>deadline-feasibility</c>, <c>queue-length</c>, <c>never</c>).</summary>
    /// <param name="builder">The builder.</param>
    /// <param name="name">The policy's name.</param>
    /// <returns>The builder.</returns>
    public static ICiceroBuilder UseDropPolicy(this ICiceroBuilder builder, string name)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.Configure<CiceroGrpcOptions>(o => o.DropPolicy = name);
        return builder;
    }

    /// <summary>Sets how external requests are assigned a workflow at an entry point.</summary>
    /// <param name="builder">The builder.</param>
    /// <param name="classifier">The classifier (see <see cref="WorkflowClassifiers"/>).</param>
    /// <returns>The builder.</returns>
    public static ICiceroBuilder ClassifyWorkflowsWith(this ICiceroBuilder builder, IWorkflowClassifier classifier)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(classifier);
        builder.Services.Configure<CiceroGrpcOptions>(o => o.Classifier = classifier);
        return builder;
    }

    /// <summary>Replaces the policy catalog, e.g. to register custom schedulers, policies or selectors by name.</summary>
    /// <param name="builder">The builder.</param>
    /// <param name="configure">Adds to the default catalog.</param>
    /// <returns>The builder.</returns>
    public static ICiceroBuilder ConfigurePolicies(this ICiceroBuilder builder, Action<PolicyCatalogBuilder> configure)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(configure);
        var catalog = PolicyCatalogBuilder.CreateDefault();
        configure(catalog);
        var built = catalog.Build();
        builder.Services.AddSingleton(built);
        foreach (var name in built.ReplicaSelectorNames.Except(PolicyCatalog.Default.ReplicaSelectorNames, StringComparer.Ordinal))
        {
            CiceroServiceCollectionExtensions.AddBalancer(builder.Services, name);
        }

        return builder;
    }
}
