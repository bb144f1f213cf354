// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// The dissertation's evaluation topology (section 5.3, Figure 5.4): 10 front ends (FE), 5 authentication servers
/// (Auth), 10 partition servers (PS) and 10 block servers (BS), with thread and connection pools everywhere, emulated
/// compute at Auth and PS and an emulated disk at BS. A scenario without services gets it.
/// </summary>
/// <remarks>
/// The paper gives the shape but not the capacities; these are ours, chosen so that the 5.3.1 load without the
/// aggressive tenant leaves the BS disks about a quarter busy (docs/emulator.md explains the arithmetic).
/// </remarks>
public static class DefaultTopology
{
    /// <summary>The front-end service's name.</summary>
    public const string FrontEnd = "fe";

    /// <summary>The authentication service's name.</summary>
    public const string Auth = "auth";

    /// <summary>The partition service's name.</summary>
    public const string PartitionService = "ps";

    /// <summary>The block storage service's name.</summary>
    public const string BlockService = "bs";

    /// <summary>Creates the four services with their resources.</summary>
    /// <returns>A new list, free to modify.</returns>
    public static IList<ServiceSpec> CreateServices() =>
    [
        Service(FrontEnd, 10, Resource("threads", ResourceKinds.ThreadPool, 512), Resource("connections", ResourceKinds.ConnectionPool, 1024)),
        Service(Auth, 5, Resource("threads", ResourceKinds.ThreadPool, 256), Resource("cpu", ResourceKinds.Compute, 8)),
        Service(PartitionService, 10, Resource("threads", ResourceKinds.ThreadPool, 512), Resource("connections", ResourceKinds.ConnectionPool, 1024), Resource("compute", ResourceKinds.Compute, 8)),
        Service(BlockService, 10, Resource("threads", ResourceKinds.ThreadPool, 256), Resource("disk", ResourceKinds.Disk, 64)),
    ];

    /// <summary>
    /// Creates the routes: FE to Auth at random, FE to PS by consistent hashing of the workflow's table partition, PS to
    /// BS by block (64 blocks per partition, 3 copies, round-robin between copies).
    /// </summary>
    /// <returns>A new list, free to modify.</returns>
    public static IList<RouteSpec> CreateRoutes() =>
    [
        new RouteSpec { From = FrontEnd, To = Auth, Strategy = RoutingStrategies.Random },
        new RouteSpec { From = FrontEnd, To = PartitionService, Strategy = RoutingStrategies.ConsistentHash },
        new RouteSpec { From = PartitionService, To = BlockService, Strategy = RoutingStrategies.Blocks, BlocksPerPartition = 64, Replication = 3, ReplicaSelector = "round-robin" },
    ];

    private static ServiceSpec Service(string name, int instances, params ResourceSpec[] resources) =>
        new() { Name = name, Instances = instances, Resources = [.. resources] };

    private static ResourceSpec Resource(string name, string kind, int capacity) =>
        new() { Name = name, Kind = kind, Capacity = capacity };
}
