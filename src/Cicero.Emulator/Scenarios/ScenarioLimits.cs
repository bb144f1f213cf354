// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// The largest values a scenario may hold, checked by validation before a run allocates anything: a value past one of
/// them is almost always a typo (a rate of 1e12/s, a count of 1e9), and would otherwise end in an out-of-memory crash.
/// </summary>
public static class ScenarioLimits
{
    /// <summary>The most instances of one service.</summary>
    public const int MaxInstances = 10_000;

    /// <summary>The largest capacity of one resource (permits).</summary>
    public const int MaxCapacity = 1_000_000;

    /// <summary>The longest queue of one resource.</summary>
    public const int MaxQueueLength = 10_000_000;

    /// <summary>The largest call count of one call stage.</summary>
    public const int MaxCallCount = 10_000;

    /// <summary>The most calls one request may make in all: the product of the counts along the deepest nesting.</summary>
    public const long MaxCallsPerRequest = 1_000_000;

    /// <summary>The most partitions of a workflow's table, virtual nodes per instance, or blocks per partition.</summary>
    public const int MaxPlacement = 1_000_000;

    /// <summary>The highest rate of one open-loop workload, requests per second.</summary>
    public const double MaxRatePerSecond = 1_000_000;

    /// <summary>The most clients of one closed-loop workload.</summary>
    public const int MaxClients = 100_000;

    /// <summary>The longest run, in seconds (a week).</summary>
    public const double MaxDurationSeconds = 7 * 24 * 3600;

    /// <summary>The most requests the open-loop workloads may offer in a run (rate times duration, summed): the simulator keeps one latency per request.</summary>
    public const double MaxOfferedRequests = 100_000_000;
}
