// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reproduction;

/// <summary>Verdicts from per-seed figures: each a 95% interval over seeds of a paired difference, never one seed.</summary>
internal static class Verdicts
{
    /// <summary>"a is below b" seed by seed.</summary>
    public static ReproductionVerdict Below(double[] a, double[] b) => SeedInterval.OfDifference(a, b).BelowZero();

    /// <summary>"a is below the threshold", from the interval of a over seeds.</summary>
    public static ReproductionVerdict Below(double[] a, double threshold) => SeedInterval.OfDifference(a, [.. a.Select(_ => threshold)]).BelowZero();

    /// <summary>"a is above b" seed by seed.</summary>
    public static ReproductionVerdict Above(double[] a, double[] b) => SeedInterval.OfDifference(a, b).AboveZero();

    /// <summary>"a is above the threshold", from the interval of a over seeds.</summary>
    public static ReproductionVerdict Above(double[] a, double threshold) => SeedInterval.OfDifference(a, [.. a.Select(_ => threshold)]).AboveZero();

    /// <summary>Several conditions at once: missed if any is, reproduced if all are, else a tie.</summary>
    public static ReproductionVerdict All(params ReproductionVerdict[] verdicts) =>
        verdicts.Any(v => v == ReproductionVerdict.Missed) ? ReproductionVerdict.Missed
        : verdicts.All(v => v is ReproductionVerdict.Reproduced or ReproductionVerdict.Beaten) ? ReproductionVerdict.Reproduced
        : ReproductionVerdict.Tie;

    /// <summary>"within (low, high)": reproduced when the interval lies inside, missed when it lies outside, else a tie.</summary>
    public static ReproductionVerdict Within(double[] a, double low, double high)
    {
        var interval = SeedInterval.Of(a);
        return interval.Low > low && interval.High < high ? ReproductionVerdict.Reproduced
            : interval.High < low || interval.Low > high ? ReproductionVerdict.Missed
            : ReproductionVerdict.Tie;
    }

    /// <summary>The per-seed ratios a / b.</summary>
    public static double[] Ratio(double[] a, double[] b) => [.. a.Zip(b, (x, y) => x / y)];

    /// <summary>A claim with a verdict already computed.</summary>
    public static ReproductionClaim Claim(string id, string claim, string paper, string ours, ReproductionVerdict verdict, string reason, bool isChecked = true) =>
        new(id, claim, paper, ours, verdict, verdict switch
        {
            ReproductionVerdict.Reproduced => string.Empty,
            ReproductionVerdict.Tie when string.IsNullOrEmpty(reason) => "The 95% interval over seeds does not decide it.",
            _ => reason,
        }, isChecked);

    /// <summary>"mean ± half-width" of per-seed figures.</summary>
    public static string Ci(double[] values, string format) => SeedInterval.Of(values).ToString(format);
}
