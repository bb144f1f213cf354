// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>Tests that measure the process (managed heap) run alone, after the parallel tests.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SerialEmulatorTests
{
    public const string Name = "Emulator reliability (serial)";
}
