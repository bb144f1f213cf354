// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.LoadBalancing;

/// <summary>Where one call goes, and what the balancer wants back when it ends.</summary>
/// <param name="Address">The server's base address.</param>
/// <param name="State">The balancer's own per-pick state, handed back in <see cref="LoadBalancer.Complete"/>.</param>
public readonly record struct LoadBalancerPick(Uri Address, object? State = null);
