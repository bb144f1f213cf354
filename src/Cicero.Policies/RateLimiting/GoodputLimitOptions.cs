// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics.CodeAnalysis;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// How the <see cref="BottleneckFairnessPolicy"/> limits a workflow, at an entry point, to what the system below
/// actually serves of it (<see cref="BottleneckFairnessOptions.GoodputLimit"/>).
/// </summary>
/// <remarks>
/// <para>
/// Users turn it on (<c>new GoodputLimitOptions()</c>, the default) or off (<see langword="null"/>); its tuning
/// properties are research variants (<c>CICERO001</c>, docs/decisions/0021).
/// </para>
/// <para>
/// The rate σ′ an entry point derives from its downstreams' answers can run far above what they serve: a deep bottleneck's
/// limit is divided by a measured amplification that reads low while admissions are sparse, and scattered again at each
/// hop. The entry then admits requests that time out inside, where they still take capacity from everyone. Their
/// callers' outcomes are the direct evidence.
/// </para>
/// <para>
/// When, over <see cref="Window"/>, at least <see cref="MinimumFailures"/> of a workflow's admitted requests failed (timed
/// out, or dropped further down) and they were more than <see cref="FailureFraction"/> of its outcomes, for
/// <see cref="Persistence"/> on end, its σ is limited to <see cref="Headroom"/> × the rate at which its requests succeeded
/// over the window: at once (the persistence is the patience), then falling by at most
/// <see cref="BottleneckFairnessOptions.MaxDecrease"/> per interval while they keep failing. While they do
/// not fail so, the limit grows by <see cref="Growth"/> per second, and at least to <see cref="Headroom"/> × the success
/// rate; it is lifted once it exceeds <see cref="Headroom"/> × the workflow's arrival rate.
/// </para>
/// <para>
/// A healthy system does not start it: its requests do not mostly fail. Nor does an overload's first seconds, which the
/// bottleneck's own cut resolves: the persistence rule is what keeps a flood's onset from cutting the flooding workflow
/// below its fair share. A failure of a request admitted with less than half its deadline left is not counted
/// (<c>CiceroRuntime.RecordEntryOutcome</c>), so the limit does not make its own evidence.
/// </para>
/// </remarks>
public sealed class GoodputLimitOptions
{
    /// <summary>Gets or sets the share of a workflow's outcomes that must be failures for the limit to start and hold.</summary>
    /// <value>0.5. Values must be in (0, 1).</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public double FailureFraction { get; set; } = 0.5;

    /// <summary>Gets or sets how many failures within <see cref="Window"/> are evidence enough.</summary>
    /// <value>10. Values must be in [1, 10,000]. Fewer are too few to tell a workflow of a few requests per second from noise.</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public int MinimumFailures { get; set; } = 10;

    /// <summary>Gets or sets the sliding window over which outcomes are counted.</summary>
    /// <value>1 s. Values must be in (0, 60 s]. A longer window holds a flood's onset failures past the persistence.</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public TimeSpan Window { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Gets or sets how long the failures must persist before the limit starts.</summary>
    /// <value>2 s. Values must be in [0, 60 s]. Shorter, the onset of a flood that the bottleneck's cut is resolving starts it
    /// and starves the flooding workflow below its fair share.</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public TimeSpan Persistence { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets or sets the multiple of the success rate the limit is set at.</summary>
    /// <value>2. Values must be in [1, 100].</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public double Headroom { get; set; } = 2;

    /// <summary>Gets or sets how fast the limit grows, a fraction per second, while the failures do not warrant it.</summary>
    /// <value>0.1 (10% a second). Values must be in (0, 100]. The limit also follows <see cref="Headroom"/> × the success
    /// rate up, so a workflow whose admitted requests all succeed again doubles its limit about once per window; this is the
    /// floor of the regrowth when few requests are admitted.</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public double Growth { get; set; } = 0.1;

    internal GoodputLimitOptions Clone() => (GoodputLimitOptions)MemberwiseClone();

    internal void Validate()
    {
        const string Prefix = nameof(BottleneckFairnessOptions.GoodputLimit) + ".";
        if (!(FailureFraction is > 0 and < 1))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(FailureFraction), FailureFraction, "Must be in (0, 1) (a share of the outcomes).");
        }

        if (MinimumFailures is < 1 or > 10_000)
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(MinimumFailures), MinimumFailures, "Must be in [1, 10000].");
        }

        if (!(Window > TimeSpan.Zero && Window <= TimeSpan.FromMinutes(1)))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(Window), Window, "Must be in (0, 60 s].");
        }

        if (!(Persistence >= TimeSpan.Zero && Persistence <= TimeSpan.FromMinutes(1)))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(Persistence), Persistence, "Must be in [0, 60 s].");
        }

        if (!(Headroom is >= 1 and <= 100))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(Headroom), Headroom, "Must be in [1, 100] (a multiple of the success rate).");
        }

        if (!(Growth is > 0 and <= 100))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(Growth), Growth, "Must be in (0, 100] (a fraction per second).");
        }
    }
}
