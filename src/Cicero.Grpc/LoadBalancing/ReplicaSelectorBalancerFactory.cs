// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;
using Grpc.Net.Client.Balancer;

namespace Cicero.Grpc.LoadBalancing;

/// <summary>
/// A grpc-dotnet load-balancing policy from any replica selector of Cicero.Policies (<c>c3</c>, <c>c3-background</c>,
/// <c>least-outstanding</c>, <c>p2c-peak-ewma</c>, <c>dynamic-snitch</c>, ...), named like the selector. Register it in
/// the channel's service provider (<c>AddCicero</c> registers one per selector) and choose it with
/// <c>new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig("c3") } }</c>.
/// </summary>
/// <remarks>
/// The server's feedback (queue size, service time) arrives in trailers, which grpc-dotnet's balancer API does not
/// pass on; <see cref="Client.CiceroClientInterceptor"/> on the same channel hands them to the replica that served the
/// call. Without the interceptor the policy still learns response times and outstanding counts.
/// </remarks>
public sealed class ReplicaSelectorBalancerFactory : LoadBalancerFactory
{
    private readonly ReplicaSelectorFactory _selector;
    private readonly ReplicaGroupOptions? _options;
    private readonly TimeProvider _timeProvider;

    /// <summary>Creates the policy.</summary>
    /// <param name="selector">The selector's factory.</param>
    /// <param name="options">Replica-group options; defaults when <see langword="null"/>.</param>
    /// <param name="timeProvider">The clock; the system clock when <see langword="null"/>.</param>
    public ReplicaSelectorBalancerFactory(ReplicaSelectorFactory selector, ReplicaGroupOptions? options = null, TimeProvider? timeProvider = null)
    {
        ArgumentNullException.ThrowIfNull(selector);
        _selector = selector;
        _options = options;
        _timeProvider = timeProvider ?? TimeProvider.System;
    }

    /// <inheritdoc />
    public override string Name => _selector.Name;

    /// <summary>Creates the <c>c3</c> policy.</summary>
    /// <param name="c3">C3's score options; the defaults when <see langword="null"/>.</param>
    /// <param name="options">Replica-group options; defaults when <see langword="null"/>.</param>
    /// <param name="timeProvider">The clock; the system clock when <see langword="null"/>.</param>
    /// <returns>The policy.</returns>
    public static ReplicaSelectorBalancerFactory C3(C3Options? c3 = null, ReplicaGroupOptions? options = null, TimeProvider? timeProvider = null) =>
        new(c3 is null ? PolicyCatalog.Default.GetReplicaSelector(ReplicaSelectorNames.C3) : LatencyAwareC3Selector.CreateFactory(c3), options, timeProvider);

    /// <summary>Creates one policy for every replica selector of a catalog.</summary>
    /// <param name="catalog">The catalog; <see cref="PolicyCatalog.Default"/> when <see langword="null"/>.</param>
    /// <param name="timeProvider">The clock; the system clock when <see langword="null"/>.</param>
    /// <returns>The policies.</returns>
    public static IReadOnlyList<ReplicaSelectorBalancerFactory> ForCatalog(PolicyCatalog? catalog = null, TimeProvider? timeProvider = null)
    {
        catalog ??= PolicyCatalog.Default;
        return [.. catalog.ReplicaSelectorNames.Select(name => new ReplicaSelectorBalancerFactory(catalog.GetReplicaSelector(name), null, timeProvider))];
    }

    /// <inheritdoc />
    public override LoadBalancer Create(LoadBalancerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new ReplicaSelectorBalancer(options.Controller, options.LoggerFactory, _selector.Create(_timeProvider.TimestampFrequency), _options, _timeProvider);
    }
}
