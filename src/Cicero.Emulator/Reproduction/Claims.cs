// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Reproduction;

/// <summary>Helpers the studies share: a claim from a yes/no measurement, and invariant-culture text.</summary>
internal static class Claims
{
    /// <summary>A claim judged on one run: reproduced or missed. A miss without a reason of its own points at the figure.</summary>
    /// <remarks>Reasons are written for the shared traces; on another trace a claim can miss where they expect it to hold.</remarks>
    public static ReproductionClaim Of(string id, string claim, string paper, string ours, bool holds, string reason, bool isChecked = true) =>
        new(id, claim, paper, ours, holds ? ReproductionVerdict.Reproduced : ReproductionVerdict.Missed,
            holds || !string.IsNullOrWhiteSpace(reason) ? reason : "This run does not show it (one run, no interval): see 'ours' and the section's table.", isChecked);

    public static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
