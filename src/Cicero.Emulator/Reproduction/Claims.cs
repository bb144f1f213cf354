// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Reproduction;

/// <summary>Helpers the studies share: a claim from a yes/no measurement, and invariant-culture text.</summary>
internal static class Claims
{
    public static ReproductionClaim Of(string id, string claim, string paper, string ours, bool holds, string reason, bool isChecked = true) =>
        new(id, claim, paper, ours, holds ? ReproductionVerdict.Reproduced : ReproductionVerdict.Missed, reason, isChecked);

    public static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
