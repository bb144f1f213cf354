// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics.CodeAnalysis;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// How fast the <see cref="BottleneckFairnessPolicy"/> lets the rate σ of a workflow it holds back grow again after a
/// cut (<see cref="BottleneckFairnessOptions.HeldRateRegrowth"/>).
/// </summary>
/// <remarks>
/// <para>
/// A cut's effect reaches the bottleneck only after the whole loop's delay (one interval per hop, each way), so a
/// workflow released as soon as the bottleneck's queue drains is admitted again at full rate before the next cut lands,
/// and an aggressor saws between its cut and its flood. With these options, σ of a workflow that still offers more
/// than it was allowed grows by at most σ · ((1 + <see cref="RelativePerSecond"/>)^t − 1) +
/// <see cref="AdditivePerSecond"/> · t in t seconds: it stays near its cut while the pressure lasts.
/// </para>
/// <para>
/// The limit applies only where the cut is still warranted: where the last cut came from downstream (σ′), or while a
/// resource of this process still holds at least <see cref="BusyFraction"/> of its permits. A cut on a resource that
/// has since gone idle (a false alarm on a healthy system) heals at the ramp's own pace.
/// </para>
/// </remarks>
[Experimental(RateControlDiagnostics.ExperimentalId)]
public sealed class HeldRateRegrowthOptions
{
    /// <summary>Gets or sets how fast a held-back σ may grow, as a fraction of itself per second (compounded).</summary>
    /// <value>0.02 (2% a second). Values must be in [0, 10].</value>
    public double RelativePerSecond { get; set; } = 0.02;

    /// <summary>Gets or sets how fast a held-back σ may grow beside that, in requests per second per second.</summary>
    /// <value>1. Values must be in [0, 1,000,000]; the relative and additive growth may not both be 0.</value>
    public double AdditivePerSecond { get; set; } = 1;

    /// <summary>
    /// Gets or sets the fraction of a resource's permits that must still be held (or waited for) for a cut made at this
    /// process to keep limiting regrowth.
    /// </summary>
    /// <value>0.8. Values must be in (0, 4].</value>
    public double BusyFraction { get; set; } = 0.8;

    /// <summary>The largest σ a held-back workflow may have after <paramref name="seconds"/>, from <paramref name="previous"/>.</summary>
    internal double Limit(double previous, double seconds) =>
        (previous * Math.Pow(1 + RelativePerSecond, seconds)) + (AdditivePerSecond * seconds);

    internal HeldRateRegrowthOptions Clone() => (HeldRateRegrowthOptions)MemberwiseClone();

    internal void Validate()
    {
        const string Prefix = nameof(BottleneckFairnessOptions.HeldRateRegrowth) + ".";
        if (!(RelativePerSecond is >= 0 and <= 10))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(RelativePerSecond), RelativePerSecond, "Must be in [0, 10] (a fraction of σ per second).");
        }

        if (!(AdditivePerSecond is >= 0 and <= 1_000_000))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(AdditivePerSecond), AdditivePerSecond, "Must be in [0, 1,000,000] (requests per second, per second).");
        }

        if (RelativePerSecond == 0 && AdditivePerSecond == 0)
        {
            throw new ArgumentException("RelativePerSecond and AdditivePerSecond may not both be 0: a held-back workflow could never grow again.", Prefix + nameof(AdditivePerSecond));
        }

        if (!(BusyFraction is > 0 and <= 4))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(BusyFraction), BusyFraction, "Must be in (0, 4] (load as a fraction of capacity).");
        }
    }
}
