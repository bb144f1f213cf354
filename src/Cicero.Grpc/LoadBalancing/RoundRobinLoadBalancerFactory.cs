// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.LoadBalancing;

/// <summary>The <c>round_robin</c> policy: each call to the next server in turn.</summary>
public sealed class RoundRobinLoadBalancerFactory : LoadBalancerFactory
{
    /// <summary>The policy's name.</summary>
    public const string PolicyName = "round_robin";

    /// <inheritdoc />
    public override string Name => PolicyName;

    /// <inheritdoc />
    public override LoadBalancer Create(LoadBalancerContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return new RoundRobinLoadBalancer(context.Addresses);
    }
}
