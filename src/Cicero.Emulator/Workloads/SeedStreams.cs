// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Workloads;

/// <summary>
/// Derives independent seeds from a run's seed, one per purpose (each workload's arrivals, service times, routing), so
/// that a workload's arrival times do not depend on what else the run draws: every configuration of a scenario sees the
/// same offered load.
/// </summary>
internal static class SeedStreams
{
    /// <summary>Service times and think times.</summary>
    public const int ServiceTimes = 1;

    /// <summary>Routing: instance choice, partitions, blocks.</summary>
    public const int Routing = 2;

    /// <summary>Seeds of replica selectors that draw random numbers.</summary>
    public const int Selectors = 3;

    /// <summary>The first service's background activity; service i uses <c>FirstBackground + i</c>.</summary>
    public const int FirstBackground = 100;

    /// <summary>The first workload's stream; workload i uses <c>FirstWorkload + i</c>.</summary>
    public const int FirstWorkload = 1000;

    /// <summary>Mixes a seed and a stream number into a new seed (SplitMix64's finaliser).</summary>
    /// <param name="seed">The run's seed.</param>
    /// <param name="stream">The purpose.</param>
    /// <returns>A seed for <see cref="Random(int)"/>.</returns>
    public static int Derive(int seed, int stream)
    {
        var z = ((ulong)(uint)seed << 32) ^ (ulong)(uint)stream;
        z += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        z ^= z >> 31;
        return (int)(z & 0x7FFFFFFF);
    }
}
