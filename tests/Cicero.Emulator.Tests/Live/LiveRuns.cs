// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Live;

/// <summary>Live runs measure real time: they run alone, after the CPU-heavy simulations, not beside them.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class LiveRuns
{
    public const string Name = "Live runs";
}
