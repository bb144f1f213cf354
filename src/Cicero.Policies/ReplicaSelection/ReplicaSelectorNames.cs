// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>The configuration names of the built-in replica selectors.</summary>
public static class ReplicaSelectorNames
{
    /// <summary>C3 for real servers (<see cref="LatencyAwareC3Selector"/>): C3's cubic score against each replica's parallelism, with ageing.</summary>
    public const string C3 = "c3";

    /// <summary>C3 as the paper writes it (Suresh et al., NSDI 2015): scores plus per-replica rate control and backpressure.</summary>
    public const string C3Paper = "c3-paper";

    /// <summary>Wu's background-aware variant of C3, which also weighs each server's background activity.</summary>
    public const string C3Background = "c3-background";

    /// <summary>Round robin over the replicas that are up.</summary>
    public const string RoundRobin = "round-robin";

    /// <summary>Uniform random choice among the replicas that are up.</summary>
    public const string Random = "random";

    /// <summary>The replica with the fewest outstanding requests from this client.</summary>
    public const string LeastOutstanding = "least-outstanding";

    /// <summary>Power of two choices with peak-EWMA latency, as in Finagle and Linkerd.</summary>
    public const string PowerOfTwoChoicesPeakEwma = "p2c-peak-ewma";

    /// <summary>Cassandra's dynamic snitch: latency scores with a badness threshold and a periodic reset.</summary>
    public const string DynamicSnitch = "dynamic-snitch";

    /// <summary>A simulation-only selector that is told each server's true queue and service time.</summary>
    public const string Oracle = "oracle";
}
