// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reproduction;
using Cicero.Emulator.Tests.Traces;

namespace Cicero.Emulator.Tests.Reproduction;

/// <summary>Every study at reduced size (the C3 simulation, Table 5.4 and the scenarios), run once for the claims tests.</summary>
public sealed class ReproductionClaimsFixture
{
    public ReproductionClaimsFixture()
    {
        var settings = new ReproductionSettings
        {
            Reduced = true,
            BlockTracePath = TraceTestFiles.MetaBlock,
            SweepTraces = ReproductionSettings.DefaultSweepTraces(TraceTestFiles.PublicTraces, reduced: true),
        };
        Sections = [.. C3Study.Run(settings), .. DeadlineStudy.Run(settings), .. DeadlineSweep.Run(settings), .. ScenarioStudy.Run(settings)];
    }

    public IReadOnlyList<ReproductionSection> Sections { get; }
}

/// <summary>The claims and page tests share one reduced run (a class fixture would run it once per class).</summary>
[CollectionDefinition(Name)]
public sealed class ReducedReproductionRun : ICollectionFixture<ReproductionClaimsFixture>
{
    public const string Name = "reproduction at reduced size";
}
