// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Traces;

/// <summary>Memory tests read process-wide figures (GC heap, working set): they run alone, after the parallel tests.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class LargeTraces
{
    public const string Name = "Large traces";

    /// <summary>Opts into the long measurement: the size in MB of the generated trace (1024 for the README's figure).</summary>
    public const string MeasureVariable = "CICERO_TRACE_MEASURE_MB";
}
