// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics.CodeAnalysis;

namespace Cicero.Policies.RateLimiting;

/// <summary>Options of the <see cref="BottleneckFairnessPolicy"/> (dissertation Algorithm 4).</summary>
/// <remarks>
/// <para>
/// The defaults are Cicero's safe ones (docs/decisions/0021): a workflow is unlimited until one of its resources is
/// overloaded, rates are cut to a measured level rather than by compounding factors, and ramps are bounded by demand.
/// <see cref="AsWritten"/> gives the algorithm exactly as the dissertation writes it.
/// </para>
/// <para>
/// Eight options are for users: <see cref="ProbeFactor"/>, <see cref="MinimumRate"/>, <see cref="MaxDecrease"/>,
/// <see cref="TargetLoad"/>, <see cref="BottleneckUtilization"/>, <see cref="QueueDrainTime"/>,
/// <see cref="DemandSmoothingTime"/> and <see cref="GoodputLimit"/> (docs/policies/bottleneck-fairness.md). The others
/// are research variants, kept for the emulator's sweeps and <see cref="AsWritten"/>; they are marked
/// <see cref="ExperimentalAttribute"/> with the diagnostic <c>CICERO001</c> and may change or go without notice.
/// </para>
/// </remarks>
public sealed class BottleneckFairnessOptions
{
    /// <summary>
    /// Gets or sets the additive probe factor β: how much a workflow's rate grows per control interval, in requests
    /// per second. With spare capacity a leaf workflow grows by β(1 + φ/n) per interval (between β and 2β); under a
    /// bottleneck a workflow below its fair share grows by β.
    /// </summary>
    /// <value>10 requests/s per interval (100 requests/s per second at the default 100 ms interval).</value>
    public double ProbeFactor { get; set; } = 10;

    /// <summary>
    /// Gets or sets the rate a leaf workflow ramps up from when it has no finite, positive rate yet (σ = +∞ before
    /// the first limit, or σ = 0), in requests per second. A workflow never limited before starts from the larger of
    /// this and its measured admitted rate, so the first limit never cuts it while capacity is spare.
    /// </summary>
    /// <value>10 requests/s.</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public double InitialRate { get; set; } = 10;

    /// <summary>
    /// Gets or sets the floor of every rate the policy computes itself (ramp-ups and cuts), in requests per second, so
    /// a workflow is never locked out at 0 and can always probe its way back.
    /// </summary>
    /// <value>1 request/s.</value>
    public double MinimumRate { get; set; } = 1;

    /// <summary>
    /// Gets or sets the largest fraction of a workflow's rate one interval may cut when a resource is a bottleneck.
    /// Algorithm 4 cuts σ by the ratio of fair to current load at once (1, the default); a smaller value makes the
    /// cut gradual, which keeps a small resource busier under a flood than the sawtooth of deep cuts and ramps does.
    /// </summary>
    /// <value>0.5 (Algorithm 4 as written: 1, no limit).</value>
    public double MaxDecrease { get; set; } = 0.5;

    /// <summary>
    /// Gets or sets how far above its measured arrival rate a leaf workflow's rate may ramp while capacity is spare:
    /// σ grows by β per interval only while σ &lt; <c>RampHeadroom</c> × max(arrival rate, initial rate). Algorithm 4
    /// ramps without bound, so a workflow that offers little for a while holds a rate far above anything it uses, and
    /// when it then floods, that stale rate is admitted until the cuts catch up (rate validation, as TCP does for an
    /// idle congestion window).
    /// </summary>
    /// <value>2 (Algorithm 4 as written: +∞, no bound). Finite values must be at least 1.</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public double RampHeadroom { get; set; } = 2;

    /// <summary>
    /// Gets or sets the load, as a multiple of capacity, at which a resource counts as a bottleneck. Load counts
    /// permits held plus sub-tasks waiting, so at 1 any queue is overload and the rates are pushed to where the queue
    /// drains, leaving the resource idle on every dip of the arrivals; a little above 1 keeps a short standing queue
    /// (up to <c>TargetLoad − 1</c> capacities waiting on average) that covers those dips.
    /// </summary>
    /// <value>1, as the algorithm is written. Values must be in [1, 4].</value>
    public double TargetLoad { get; set; } = 1;

    /// <summary>Gets or sets which measure of load is compared with the capacity.</summary>
    /// <value><see cref="BottleneckLoadSignal.OfferedDemand"/> (Algorithm 4 as written: <see cref="BottleneckLoadSignal.HeldAndWaiting"/>).</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public BottleneckLoadSignal LoadSignal { get; set; } = BottleneckLoadSignal.OfferedDemand;

    /// <summary>
    /// Gets or sets how many control intervals in a row a resource's wait queue must not have emptied before its load
    /// above the capacity counts as a bottleneck. Arrivals bunch, and a queue that drains within a few intervals is one
    /// the resource absorbs by itself; one that never drains is overload. 0 takes any load above the capacity at once.
    /// </summary>
    /// <value>3 (300 ms at the default interval; Algorithm 4 as written: 0).</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public int CongestionIntervals { get; set; } = 3;

    /// <summary>
    /// Gets or sets how many mean service times (per permit) a resource's wait queue must also have stood before its load
    /// above the capacity counts as a bottleneck: the window is the larger of <see cref="CongestionIntervals"/> and
    /// <c>CongestionServiceTimes</c> × mean service time ÷ capacity. Where one sub-task holds a permit for longer than an
    /// interval, a few intervals of queue are a handful of arrivals bunching, not overload.
    /// </summary>
    /// <value>10 (Algorithm 4 as written: 0, no scaling). Values must be in [0, 1000].</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public double CongestionServiceTimes { get; set; } = 10;

    /// <summary>
    /// Gets or sets the time over which a resource's offered demand is averaged before it is compared with the capacity
    /// to find a bottleneck: a new interval's measure weighs control interval ÷ this time in that average (at most 1). A
    /// burst of a few hundred milliseconds, fan-out bunching sub-tasks at a few-permit resource, or a measure read from a
    /// handful of arrivals lifts a short average past the capacity on a system that serves everything offered, and
    /// cutting on it queues requests at the entry that the resource would have served. A flood (the short average past
    /// twice the target) is still a bottleneck at once, and once a resource is one, the workflows' shares are computed
    /// from their short averages as before, so a cut follows a workflow that has just grown.
    /// <see cref="TimeSpan.Zero"/> turns the long average off.
    /// </summary>
    /// <value>2 s (20 intervals at the default interval; Algorithm 4 as written: <see cref="TimeSpan.Zero"/>).</value>
    public TimeSpan DemandSmoothingTime { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Gets or sets how many standard errors of its own noise the long demand average (<see cref="DemandSmoothingTime"/>)
    /// must exceed the target by before a resource counts as overloaded, unless its backlog is growing. Where a handful
    /// of sub-tasks a second arrive in clumps (fan-out onto a one-permit tier), the average is mostly noise and crosses
    /// the capacity now and then on a system that serves everything; the standard error (from the per-interval variance
    /// of the demand) says by how much. Sequential fan-out keeps a leaf's offered demand near its completions however
    /// long its queue grows, so a backlog whose long average grew, over one smoothing time, by more than this many
    /// standard deviations of its per-interval change plus half the capacity is overload whatever the demand reads.
    /// 0 turns the test off: any excess of the average counts.
    /// </summary>
    /// <value>3 (Algorithm 4 as written: 0; docs/decisions/0011, seventh amendment). Values must be in [0, 10]; it acts
    /// only with <see cref="DemandSmoothingTime"/> on, and only where the resource has not been a bottleneck for a
    /// smoothing time, so a cut in place is not released on noise.</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public double OverloadConfidence { get; set; } = 3;

    /// <summary>
    /// Gets or sets how fast σ of a workflow held back after a cut may grow again while the cut is still warranted (it
    /// came from downstream, or a resource here is still busy), instead of ramping back into the overload before the
    /// cut's effect has come round the loop. An opt-in: it protects compliant tenants beside an aggressor more often,
    /// but it holds a deep transient cut for long, and under a flood it left most of the capacity idle (docs/decisions/0011,
    /// seventh amendment). <see langword="null"/> lets σ grow at the ramp's pace.
    /// </summary>
    /// <value><see langword="null"/> (off).</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public HeldRateRegrowthOptions? HeldRateRegrowth { get; set; }

    /// <summary>
    /// Gets or sets whether, and how, a workflow cut in a real overload stays held once the overload is gone: kept at its
    /// max-min share of a utilization of the target load beside the others' demand, until it no longer uses its limit.
    /// An opt-in: beside an aggressor it keeps the compliant tenants' tail short far more often, but below a utilization
    /// of 1 it leaves capacity idle that the held workflow wants (under DRR a simulated 10x flood's goodput fell to 78%),
    /// and a healthy system's rare deep transient is held too (docs/decisions/0011, eighth amendment).
    /// <see langword="null"/> releases a cut workflow at the ramp's pace.
    /// </summary>
    /// <value><see langword="null"/> (off).</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public OverloadHoldOptions? OverloadHold { get; set; }

    /// <summary>
    /// Gets or sets whether, and how, an entry point limits a workflow to what the system below actually serves of it:
    /// once its admitted requests have mostly failed (timed out, or been dropped further down) for a while, its σ is held
    /// at a multiple of the rate at which they succeed, so the excess is refused where it enters instead of timing out
    /// inside. Only entry points learn their callers' outcomes (<c>CiceroRuntime.RecordEntryOutcome</c>), so where every
    /// request arrives from another Cicero process it never binds. <see langword="null"/> trusts σ′ alone (Algorithm 4 as
    /// written).
    /// </summary>
    /// <value>On, at <see cref="GoodputLimitOptions"/>' defaults (docs/decisions/0011, ninth amendment): no healthy topology
    /// of the sweep starts it, and it does not bind in the simulated 10x flood.</value>
    public GoodputLimitOptions? GoodputLimit { get; set; } = new();

    /// <summary>
    /// Gets or sets the time over which a bottleneck's backlog is to be drained. Once a resource is a bottleneck it stays
    /// one until its wait queue empties, and the capacity shared among the workflows is the target load less what
    /// drains the backlog in this time (waiting sub-tasks × mean service time ÷ this time), but never less than
    /// (1 − <see cref="MaxDecrease"/>) × the target load. Offered demand alone cannot see a backlog: shares that sum to
    /// the capacity keep whatever queue a flood built standing for good, and every request waits behind it.
    /// <see cref="TimeSpan.Zero"/> turns both off.
    /// </summary>
    /// <value>1 s (Algorithm 4 as written: <see cref="TimeSpan.Zero"/>, a resource is a bottleneck only while its load exceeds the capacity).</value>
    public TimeSpan QueueDrainTime { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Gets or sets the fraction of a bottleneck's target load that is shared out: max-min fair shares are computed on
    /// this × the target, so a workflow within its share of that keeps all it offers, and the workflows above it are held
    /// to their shares. Below 1 it keeps the resource short of saturation under an aggressor, so the compliant workflows
    /// see a shorter queue, at the price of that much goodput; 1 lets the held-back workflows fill the resource, which
    /// also absorbs a burst near the capacity without cutting it.
    /// </summary>
    /// <value>1. Values must be in (0, 1].</value>
    public double BottleneckUtilization { get; set; } = 1;

    /// <summary>
    /// Gets or sets the fraction by which a limited workflow's rate may also grow per interval, on top of the additive
    /// probe: σ grows by the larger of β(1 + φ/n) and min(<c>RampFactor</c>, φ) × σ, so a rate recovers in a few
    /// intervals whatever its scale (β alone takes a second to add 100 requests/s at the default interval, a minute to
    /// add 6,000), while near the capacity (φ → 0) it only probes: a multiplicative ramp at a full resource overshoots it
    /// by the ramp factor every interval until the standing-queue test catches up.
    /// </summary>
    /// <value>0.2 (Algorithm 4 as written: 0, additive only). Values must be in [0, 1].</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public double RampFactor { get; set; } = 0.2;

    /// <summary>
    /// Gets or sets whether a workflow stays unlimited (σ = +∞) until a resource it loads is overloaded, and becomes
    /// unlimited again once its rate has ramped past <see cref="RampHeadroom"/> × its arrival rate with capacity spare.
    /// A workflow seen for the first time, or by a process that just restarted, is then admitted as it comes; rate
    /// control binds only on evidence of overload. Cuts also start from the measured rate, never compound: σ moves to
    /// arrival rate × (fair load ÷ load), and is only lowered by it.
    /// </summary>
    /// <value><see langword="true"/> (Algorithm 4 as written: <see langword="false"/>, every leaf workflow starts at
    /// <see cref="InitialRate"/> and ramps from there, and cuts multiply σ).</value>
    [Experimental(RateControlDiagnostics.ExperimentalId)]
    public bool UnlimitedUntilOverload { get; set; } = true;

    /// <summary>
    /// Creates options that run the dissertation's Algorithm 4 exactly as written: load is permits held plus sub-tasks
    /// waiting, any load above capacity is a bottleneck, σ ramps by β without bound, cuts multiply σ by the ratio of fair
    /// to current load at once, and a new workflow starts from <see cref="InitialRate"/>. Registered in the default
    /// catalog as <see cref="RateLimitPolicies.BottleneckFairnessAsWritten"/>.
    /// </summary>
    /// <returns>New options; change them before creating a factory if needed.</returns>
    public static BottleneckFairnessOptions AsWritten() => new()
    {
        MaxDecrease = 1,
        RampHeadroom = double.PositiveInfinity,
        TargetLoad = 1,
        LoadSignal = BottleneckLoadSignal.HeldAndWaiting,
        CongestionIntervals = 0,
        CongestionServiceTimes = 0,
        QueueDrainTime = TimeSpan.Zero,
        DemandSmoothingTime = TimeSpan.Zero,
        OverloadConfidence = 0,
        BottleneckUtilization = 1,
        RampFactor = 0,
        UnlimitedUntilOverload = false,
        GoodputLimit = null,
    };

    internal BottleneckFairnessOptions Clone()
    {
        var clone = (BottleneckFairnessOptions)MemberwiseClone();
        clone.HeldRateRegrowth = HeldRateRegrowth?.Clone();
        clone.OverloadHold = OverloadHold?.Clone();
        clone.GoodputLimit = GoodputLimit?.Clone();
        return clone;
    }

    internal void Validate()
    {
        if (!(ProbeFactor > 0) || !double.IsFinite(ProbeFactor))
        {
            throw new ArgumentOutOfRangeException(nameof(ProbeFactor), ProbeFactor, "The probe factor β must be a positive, finite rate (requests/s per interval).");
        }

        if (!(InitialRate > 0) || !double.IsFinite(InitialRate))
        {
            throw new ArgumentOutOfRangeException(nameof(InitialRate), InitialRate, "The initial rate must be a positive, finite rate (requests/s).");
        }

        if (!(MinimumRate > 0) || !double.IsFinite(MinimumRate))
        {
            throw new ArgumentOutOfRangeException(nameof(MinimumRate), MinimumRate, "The minimum rate must be a positive, finite rate (requests/s).");
        }

        if (!(MaxDecrease > 0 && MaxDecrease <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(MaxDecrease), MaxDecrease, "The largest cut per interval must be a fraction in (0, 1].");
        }

        if (!(RampHeadroom >= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(RampHeadroom), RampHeadroom, "The ramp headroom must be at least 1 (a multiple of the arrival rate), or +∞ for no bound.");
        }

        if (!(TargetLoad >= 1 && TargetLoad <= 4))
        {
            throw new ArgumentOutOfRangeException(nameof(TargetLoad), TargetLoad, "The target load must be in [1, 4] (a multiple of the capacity).");
        }

        if (!Enum.IsDefined(LoadSignal))
        {
            throw new ArgumentOutOfRangeException(nameof(LoadSignal), LoadSignal, "Unknown load signal.");
        }

        if (CongestionIntervals is < 0 or > 1000)
        {
            throw new ArgumentOutOfRangeException(nameof(CongestionIntervals), CongestionIntervals, "The congestion intervals must be in [0, 1000].");
        }

        if (!(CongestionServiceTimes >= 0 && CongestionServiceTimes <= 1000))
        {
            throw new ArgumentOutOfRangeException(nameof(CongestionServiceTimes), CongestionServiceTimes, "The congestion window in service times must be in [0, 1000].");
        }

        if (!(BottleneckUtilization > 0 && BottleneckUtilization <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(BottleneckUtilization), BottleneckUtilization, "The bottleneck utilization must be a fraction in (0, 1].");
        }

        if (QueueDrainTime < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(QueueDrainTime), QueueDrainTime, "The queue drain time must be zero (off) or positive.");
        }

        if (DemandSmoothingTime < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(DemandSmoothingTime), DemandSmoothingTime, "The demand smoothing time must be zero (off) or positive.");
        }

        if (!(OverloadConfidence >= 0 && OverloadConfidence <= 10))
        {
            throw new ArgumentOutOfRangeException(nameof(OverloadConfidence), OverloadConfidence, "The overload confidence must be a number of standard errors in [0, 10].");
        }

        HeldRateRegrowth?.Validate();
        OverloadHold?.Validate();
        GoodputLimit?.Validate();
        if (!(RampFactor >= 0 && RampFactor <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(RampFactor), RampFactor, "The ramp factor must be a fraction in [0, 1].");
        }
    }
}
