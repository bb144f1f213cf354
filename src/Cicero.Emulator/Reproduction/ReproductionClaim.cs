// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reproduction;

/// <summary>One published claim beside our measurement of it, with a verdict computed from the runs.</summary>
/// <param name="Id">A stable identifier (section and claim), for tests and for readers.</param>
/// <param name="Claim">The paper's claim, in a sentence.</param>
/// <param name="Paper">The paper's figure, if it gives one.</param>
/// <param name="Ours">Our figure, from the runs.</param>
/// <param name="Verdict">Reproduced, beaten, missed, or a tie (the interval over seeds contains no difference).</param>
/// <param name="Reason">Why, when it is not plainly reproduced; what differs in the set-up otherwise.</param>
/// <param name="Checked">
/// Whether CI asserts the claim at reduced size. Claims we miss at full size are not checked; neither are those whose
/// verdict depends on a margin that reduced runs cannot resolve.
/// </param>
public sealed record ReproductionClaim(string Id, string Claim, string Paper, string Ours, ReproductionVerdict Verdict, string Reason, bool Checked = true)
{
    /// <summary>Gets a value indicating whether the claim holds (reproduced or beaten).</summary>
    public bool Holds => Verdict is ReproductionVerdict.Reproduced or ReproductionVerdict.Beaten;
}
