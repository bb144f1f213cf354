// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>How calls from one service to another pick the callee instance.</summary>
public sealed class RouteSpec
{
    /// <summary>Gets or sets the calling service.</summary>
    public string? From { get; set; }

    /// <summary>Gets or sets the called service.</summary>
    public string? To { get; set; }

    /// <summary>Gets or sets the strategy: one of <see cref="RoutingStrategies.All"/>.</summary>
    /// <value>"random".</value>
    public string Strategy { get; set; } = RoutingStrategies.Random;

    /// <summary>Gets or sets, for <see cref="RoutingStrategies.Blocks"/>, how many blocks each partition has.</summary>
    /// <value>16.</value>
    public int BlocksPerPartition { get; set; } = 16;

    /// <summary>Gets or sets, for <see cref="RoutingStrategies.Blocks"/>, how many instances hold a copy of each block.</summary>
    /// <value>1.</value>
    public int Replication { get; set; } = 1;

    /// <summary>
    /// Gets or sets, for <see cref="RoutingStrategies.Blocks"/>, the replica selector that picks one copy for calls that
    /// read one replica: a name from the policy catalog such as "c3", "round-robin" or "least-outstanding".
    /// </summary>
    /// <value>"round-robin".</value>
    public string ReplicaSelector { get; set; } = "round-robin";

    /// <summary>Gets or sets, for <see cref="RoutingStrategies.ConsistentHash"/>, the virtual nodes per instance on the ring.</summary>
    /// <value>64.</value>
    public int VirtualNodes { get; set; } = 64;
}
