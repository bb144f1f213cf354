// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.LoadBalancing;

/// <summary>What a <see cref="LoadBalancerFactory"/> gets to build a channel's balancer.</summary>
/// <param name="Addresses">The channel's servers.</param>
/// <param name="TimeProvider">The channel's clock.</param>
public sealed record LoadBalancerContext(IReadOnlyList<Uri> Addresses, TimeProvider TimeProvider);
