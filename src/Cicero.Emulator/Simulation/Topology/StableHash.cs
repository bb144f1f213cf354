// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Hashes that are the same in every process and on every run (string.GetHashCode is randomised per process), for
/// consistent hashing and block placement.
/// </summary>
internal static class StableHash
{
    /// <summary>FNV-1a over the UTF-16 code units of <paramref name="text"/>, then mixed with the numbers.</summary>
    public static ulong Of(string text, int a, int b = 0)
    {
        var hash = 14695981039346656037UL;
        foreach (var c in text)
        {
            hash = (hash ^ c) * 1099511628211UL;
        }

        return Mix(Mix(hash ^ (uint)a) ^ ((ulong)(uint)b << 32));
    }

    /// <summary>SplitMix64's finaliser: spreads nearby inputs over the whole range.</summary>
    public static ulong Mix(ulong z)
    {
        z += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }
}
