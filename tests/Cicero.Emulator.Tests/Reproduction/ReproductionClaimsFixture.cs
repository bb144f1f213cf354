// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reproduction;
using Cicero.Emulator.Tests.Traces;

namespace Cicero.Emulator.Tests.Reproduction;

/// <summary>The C3 study and Table 5.4 at reduced size, run once for the claims tests.</summary>
public sealed class ReproductionClaimsFixture
{
    public ReproductionClaimsFixture()
    {
        var settings = new ReproductionSettings { Reduced = true, BlockTracePath = TraceTestFiles.MetaBlock };
        Sections = [.. C3Study.Run(settings), .. DeadlineStudy.Run(settings)];
    }

    public IReadOnlyList<ReproductionSection> Sections { get; }
}
