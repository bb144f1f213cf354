// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Grpc.LoadBalancing;

/// <summary>
/// A load-balancing policy from any replica selector of Cicero.Policies (<c>c3</c>, <c>c3-background</c>,
/// <c>least-outstanding</c>, <c>p2c-peak-ewma</c>, <c>dynamic-snitch</c>, ...), named like the selector.
/// </summary>
public sealed class ReplicaSelectorLoadBalancerFactory : LoadBalancerFactory
{
    private readonly ReplicaSelectorFactory _selector;
    private readonly ReplicaGroupOptions? _options;

    /// <summary>Creates the policy.</summary>
    /// <param name="selector">The selector's factory.</param>
    /// <param name="options">Replica-group options (backlog bound); defaults when <see langword="null"/>.</param>
    public ReplicaSelectorLoadBalancerFactory(ReplicaSelectorFactory selector, ReplicaGroupOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(selector);
        _selector = selector;
        _options = options;
    }

    /// <inheritdoc />
    public override string Name => _selector.Name;

    /// <summary>Creates the <c>c3</c> policy.</summary>
    /// <param name="c3">C3's options (score, cubic rate control); the C3 paper's defaults when <see langword="null"/>.</param>
    /// <param name="options">Replica-group options; defaults when <see langword="null"/>.</param>
    /// <returns>The policy.</returns>
    public static ReplicaSelectorLoadBalancerFactory C3(C3Options? c3 = null, ReplicaGroupOptions? options = null) =>
        new(c3 is null ? PolicyCatalog.Default.GetReplicaSelector(ReplicaSelectorNames.C3) : C3ReplicaSelector.CreateFactory(c3), options);

    /// <inheritdoc />
    public override LoadBalancer Create(LoadBalancerContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return new ReplicaSelectorLoadBalancer(_selector.Create(context.TimeProvider.TimestampFrequency), _options, context);
    }
}
