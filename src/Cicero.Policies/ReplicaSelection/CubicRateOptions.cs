// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>Options of a <see cref="CubicRateController"/> (C3 Algorithm 2 and §4.3).</summary>
public sealed class CubicRateOptions
{
    /// <summary>Gets or sets the window δ that sending and receive rates are counted in.</summary>
    /// <value>20 ms.</value>
    public TimeSpan Window { get; set; } = TimeSpan.FromMilliseconds(20);

    /// <summary>Gets or sets β, the multiplicative decrease: the rate becomes rate × β.</summary>
    /// <value>0.2.</value>
    public double Beta { get; set; } = 0.2;

    /// <summary>
    /// Gets or sets γ, the cubic's scale, in requests per window per ms³. The saddle sits at ΔT = ∛(β·R0/γ) after a
    /// decrease.
    /// </summary>
    /// <value>4e-6: a 100 ms saddle for a saturation rate R0 of 20 requests per window (1,000 per second).</value>
    public double Gamma { get; set; } = 4e-6;

    /// <summary>Gets or sets s_max, the largest increase of the rate in one step, in requests per window.</summary>
    /// <value>10.</value>
    public double MaxStep { get; set; } = 10;

    /// <summary>Gets or sets the hysteresis after an increase before a decrease is allowed, in windows.</summary>
    /// <value>2.</value>
    public double HysteresisWindows { get; set; } = 2;

    /// <summary>Gets or sets the starting sending rate, in requests per window.</summary>
    /// <value>10.</value>
    public double InitialRate { get; set; } = 10;

    /// <summary>Gets or sets the most tokens the per-replica bucket holds.</summary>
    /// <value>10.</value>
    public double MaxTokens { get; set; } = 10;

    /// <summary>Gets or sets the floor of the sending rate, in requests per window.</summary>
    /// <value>0.01.</value>
    public double MinRate { get; set; } = 0.01;

    /// <summary>Gets or sets when the rate is cut and how empty windows decay the receive rate.</summary>
    /// <value>
    /// <see cref="CubicRateVariant.DelayGuarded"/>; <see cref="CubicRateVariant.Published"/> is Algorithm 2 as written.
    /// </value>
    public CubicRateVariant Variant { get; set; } = CubicRateVariant.DelayGuarded;

    /// <summary>
    /// Gets or sets, for <see cref="CubicRateVariant.DelayGuarded"/>, how many times the fastest recent response time a
    /// response may take and still show a replica that keeps up.
    /// </summary>
    /// <value>2.</value>
    public double HealthyResponseFactor { get; set; } = 2;

    /// <summary>
    /// Gets or sets, for <see cref="CubicRateVariant.DelayGuarded"/>, the slack added to the healthy response time, so
    /// that the jitter of very fast calls (tens of microseconds) does not read as queueing.
    /// </summary>
    /// <value>1 ms.</value>
    public TimeSpan HealthyResponseSlack { get; set; } = TimeSpan.FromMilliseconds(1);

    /// <summary>
    /// Gets or sets, for <see cref="CubicRateVariant.DelayGuarded"/>, how long the fastest response time is remembered:
    /// the minimum is taken over the last one to two such periods, so a replica whose base latency rises is re-learned.
    /// </summary>
    /// <value>10 s.</value>
    public TimeSpan MinResponseTimeWindow { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Gets or sets how the rate grows (C3's cubic, or AIMD's and BIC's rules for comparison).</summary>
    /// <value><see cref="RateIncreaseRule.Cubic"/>.</value>
    public RateIncreaseRule Increase { get; set; } = RateIncreaseRule.Cubic;

    /// <summary>
    /// Gets or sets the step of <see cref="RateIncreaseRule.Additive"/>, and the smallest step of
    /// <see cref="RateIncreaseRule.BinarySearch"/>, in requests per window.
    /// </summary>
    /// <value>1.</value>
    public double AdditiveStep { get; set; } = 1;

    /// <summary>Gets or sets the weight of the last window's count in the smoothed receive rate.</summary>
    /// <value>0.1.</value>
    public double ReceiveRateWeight { get; set; } = 0.1;

    internal void Validate()
    {
        if (Window <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(Window), Window, "Must be positive.");
        }

        Positive(Gamma, nameof(Gamma));
        Positive(MaxStep, nameof(MaxStep));
        Positive(InitialRate, nameof(InitialRate));
        Positive(MaxTokens, nameof(MaxTokens));
        Positive(MinRate, nameof(MinRate));
        Positive(AdditiveStep, nameof(AdditiveStep));
        if (!Enum.IsDefined(Variant))
        {
            throw new ArgumentOutOfRangeException(nameof(Variant), Variant, "Unknown variant.");
        }

        if (!(HealthyResponseFactor >= 1) || !double.IsFinite(HealthyResponseFactor))
        {
            throw new ArgumentOutOfRangeException(nameof(HealthyResponseFactor), HealthyResponseFactor, "Must be a number ≥ 1.");
        }

        if (HealthyResponseSlack < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(HealthyResponseSlack), HealthyResponseSlack, "Must not be negative.");
        }

        if (MinResponseTimeWindow <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(MinResponseTimeWindow), MinResponseTimeWindow, "Must be positive.");
        }

        if (!Enum.IsDefined(Increase))
        {
            throw new ArgumentOutOfRangeException(nameof(Increase), Increase, "Unknown increase rule.");
        }

        if (!(Beta > 0 && Beta < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(Beta), Beta, "β must be in (0, 1).");
        }

        if (!(HysteresisWindows >= 0) || !double.IsFinite(HysteresisWindows))
        {
            throw new ArgumentOutOfRangeException(nameof(HysteresisWindows), HysteresisWindows, "Must be a non-negative number.");
        }

        if (!(ReceiveRateWeight > 0 && ReceiveRateWeight <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(ReceiveRateWeight), ReceiveRateWeight, "Must be in (0, 1].");
        }
    }

    private static void Positive(double value, string name)
    {
        if (!(value > 0) || !double.IsFinite(value))
        {
            throw new ArgumentOutOfRangeException(name, value, "Must be a positive number.");
        }
    }
}
