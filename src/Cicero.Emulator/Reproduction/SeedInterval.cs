// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// A 95% confidence interval over seeds (Student's t): of one figure, or of the seed-by-seed difference between two
/// configurations run on the same seeds. Verdicts come from where the interval lies, never from one seed.
/// </summary>
/// <param name="Mean">The mean over seeds.</param>
/// <param name="HalfWidth">Half the interval's width (0 with one seed or identical values).</param>
/// <param name="Seeds">How many seeds.</param>
public readonly record struct SeedInterval(double Mean, double HalfWidth, int Seeds)
{
    // Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom; 1.96 beyond.
    private static readonly double[] TQuantiles =
    [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];

    /// <summary>Gets the interval's lower end.</summary>
    public double Low => Mean - HalfWidth;

    /// <summary>Gets the interval's upper end.</summary>
    public double High => Mean + HalfWidth;

    /// <summary>The interval of one figure over seeds.</summary>
    /// <param name="values">One value per seed.</param>
    /// <returns>The interval; half-width 0 for a single seed.</returns>
    public static SeedInterval Of(IReadOnlyList<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count == 0)
        {
            throw new ArgumentException("An interval needs at least one seed.", nameof(values));
        }

        var mean = values.Average();
        if (values.Count == 1)
        {
            return new SeedInterval(mean, 0, 1);
        }

        var variance = values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1);
        var t = values.Count - 1 <= TQuantiles.Length ? TQuantiles[values.Count - 2] : 1.96;
        return new SeedInterval(mean, t * Math.Sqrt(variance / values.Count), values.Count);
    }

    /// <summary>The interval of <paramref name="a"/> − <paramref name="b"/>, seed by seed (both run on the same seeds, in order).</summary>
    /// <param name="a">One value per seed.</param>
    /// <param name="b">One value per seed, the same seeds.</param>
    /// <returns>The interval of the paired differences.</returns>
    public static SeedInterval OfDifference(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        if (a.Count != b.Count)
        {
            throw new ArgumentException($"Paired figures need the same seeds: {a.Count} against {b.Count}.", nameof(b));
        }

        return Of([.. a.Zip(b, (x, y) => x - y)]);
    }

    /// <summary>
    /// The verdict on "below zero" (for a difference a − b: a is lower): holds when the whole interval is below zero,
    /// fails when it is all above, a tie when it contains zero. One seed cannot give a verdict: it is a tie.
    /// </summary>
    /// <returns>The verdict.</returns>
    public ReproductionVerdict BelowZero() =>
        Seeds < 2 ? ReproductionVerdict.Tie : High < 0 ? ReproductionVerdict.Reproduced : Low > 0 ? ReproductionVerdict.Missed : ReproductionVerdict.Tie;

    /// <summary>The verdict on "above zero": the mirror of <see cref="BelowZero"/>.</summary>
    /// <returns>The verdict.</returns>
    public ReproductionVerdict AboveZero() =>
        Seeds < 2 ? ReproductionVerdict.Tie : Low > 0 ? ReproductionVerdict.Reproduced : High < 0 ? ReproductionVerdict.Missed : ReproductionVerdict.Tie;

    /// <summary>Formats the interval as "mean ± half-width" with the given format.</summary>
    /// <param name="format">A numeric format, for example <c>0.00</c> or <c>P1</c>.</param>
    /// <returns>The text.</returns>
    public string ToString(string format) =>
        string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{Mean.ToString(format, System.Globalization.CultureInfo.InvariantCulture)} ± {HalfWidth.ToString(format, System.Globalization.CultureInfo.InvariantCulture)}");
}
