// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reproduction;

/// <summary>How one of our results compares with a published claim; comparisons between configurations come from a confidence interval over seeds.</summary>
public enum ReproductionVerdict
{
    /// <summary>Ours shows what the paper shows.</summary>
    Reproduced,

    /// <summary>Ours is better than the paper's figure on the paper's own measure.</summary>
    Beaten,

    /// <summary>Ours does not show it; the claim's reason says why, with the measurement.</summary>
    Missed,

    /// <summary>The 95% confidence interval over seeds contains no difference: neither shown nor contradicted.</summary>
    Tie,
}
