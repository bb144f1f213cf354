// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.LoadBalancing;

/// <summary>Creates a named load-balancing policy for a channel (e.g. <c>pick_first</c>, <c>round_robin</c>, <c>c3</c>).</summary>
public abstract class LoadBalancerFactory
{
    /// <summary>Gets the policy's name, matched case-insensitively.</summary>
    public abstract string Name { get; }

    /// <summary>Creates a balancer for one channel.</summary>
    /// <param name="context">The channel's servers and clock.</param>
    /// <returns>The balancer.</returns>
    public abstract LoadBalancer Create(LoadBalancerContext context);
}
