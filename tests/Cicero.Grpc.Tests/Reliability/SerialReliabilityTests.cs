// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Tests that measure the process (allocated bytes, managed heap, timing) run alone, after the parallel tests, so that
/// other tests' allocations and CPU use do not show up in their figures.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SerialReliabilityTests
{
    public const string Name = "Reliability (serial)";
}
