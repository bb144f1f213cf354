// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>The routing strategies a <see cref="RouteSpec"/> may name.</summary>
public static class RoutingStrategies
{
    /// <summary>Any instance, uniformly at random (FE to Auth).</summary>
    public const string Random = "random";

    /// <summary>Instances in turn, per caller instance.</summary>
    public const string RoundRobin = "round-robin";

    /// <summary>
    /// The instance that owns the request's partition of its workflow's table on a consistent-hash ring (FE to PS).
    /// A request picks one of its workflow's <see cref="WorkflowSpec.Partitions"/> uniformly.
    /// </summary>
    public const string ConsistentHash = "consistent-hash";

    /// <summary>
    /// A block of the request's partition, uniformly; the block's copies live on <see cref="RouteSpec.Replication"/>
    /// consecutive instances starting at the block's hash, and the caller's replica selector picks one (PS to BS).
    /// </summary>
    public const string Blocks = "blocks";

    /// <summary>Gets every strategy.</summary>
    public static IReadOnlyList<string> All { get; } = [Random, RoundRobin, ConsistentHash, Blocks];
}
