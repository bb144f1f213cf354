// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Sizes of the reliability runs: CI runs the defaults in a few seconds; the documented long runs
/// (docs/reliability.md) set the environment variables.
/// </summary>
internal static class ReliabilitySettings
{
    /// <summary>Inputs per fuzz test: <c>CICERO_FUZZ_ITERATIONS</c>.</summary>
    public static int FuzzIterations(int ciDefault) => Read("CICERO_FUZZ_ITERATIONS", ciDefault);

    /// <summary>The fuzzers' seed: <c>CICERO_FUZZ_SEED</c>.</summary>
    public static int FuzzSeed => Read("CICERO_FUZZ_SEED", 20261122);

    /// <summary>Distinct workflow ids in the cardinality test: <c>CICERO_CARDINALITY_IDS</c>.</summary>
    public static int CardinalityIds(int ciDefault) => Read("CICERO_CARDINALITY_IDS", ciDefault);

    private static int Read(string name, int fallback) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value > 0 ? value : fallback;
}
