// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>The selectors a <see cref="ReplicaSimulation"/> can run, by name.</summary>
public static class SimulationSelectorNames
{
    /// <summary>The oracle, told each server's true queue and mean service time before every choice.</summary>
    public const string Oracle = ReplicaSelectorNames.Oracle;

    /// <summary>C3 with n = the number of clients, its cubic rate limiters and the per-group backlog.</summary>
    public const string C3 = ReplicaSelectorNames.C3;

    /// <summary>Least outstanding requests, without rate limiting.</summary>
    public const string LeastOutstanding = ReplicaSelectorNames.LeastOutstanding;

    /// <summary>Round robin behind C3's per-replica cubic rate limiters and backlog, as in the C3 paper's §6 baseline.</summary>
    public const string RoundRobin = ReplicaSelectorNames.RoundRobin;

    /// <summary>Plain round robin, without rate limiting.</summary>
    public const string RoundRobinPlain = "round-robin-plain";

    /// <summary>Least outstanding requests with ties to the group's first replica (the authors' simulator's tie rule).</summary>
    public const string LeastOutstandingFirstTie = "least-outstanding-first-tie";

    /// <summary>Cassandra's dynamic snitch (scores from latencies, refreshed every 100 ms, 10% badness threshold).</summary>
    public const string DynamicSnitch = ReplicaSelectorNames.DynamicSnitch;

    /// <summary>Gets the selectors the reference table compares, in its order.</summary>
    public static IReadOnlyList<string> Reference { get; } = [Oracle, C3, LeastOutstandingFirstTie, RoundRobin];

    /// <summary>Gets every selector the simulation knows.</summary>
    public static IReadOnlyList<string> All { get; } = [Oracle, C3, LeastOutstanding, RoundRobin, RoundRobinPlain, LeastOutstandingFirstTie, DynamicSnitch];
}
