// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>Options of a <see cref="RateAdaptationController"/>.</summary>
public sealed class RateAdaptationOptions
{
    /// <summary>Gets or sets this process's id, sent with rate queries so downstream instances can share by caller.</summary>
    public string ProcessId { get; set; } = "local";

    /// <summary>Gets or sets the quantile knob q used to aggregate the instances of a downstream service.</summary>
    /// <value>0.5 (median), as in the dissertation's experiments.</value>
    public double Quantile { get; set; } = 0.5;

    /// <summary>Gets or sets the control interval.</summary>
    /// <value>100 ms.</value>
    public TimeSpan Interval { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Gets or sets how long one downstream query may take before it counts as unanswered.</summary>
    /// <value>80 ms, so a slow instance cannot stall the 100 ms loop.</value>
    public TimeSpan QueryTimeout { get; set; } = TimeSpan.FromMilliseconds(80);

    /// <summary>
    /// Gets or sets how long a silent instance's last good answer is still used. After it the instance stops
    /// constraining rates; when no instance of a service is left, the local policy alone decides.
    /// </summary>
    /// <value>1 s (ten intervals).</value>
    public TimeSpan HoldTime { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Gets or sets the rate a workflow's σ starts at before the first step.</summary>
    /// <value>+∞.</value>
    public double InitialRate { get; set; } = double.PositiveInfinity;

    /// <summary>
    /// Gets or sets the multiple of a workflow's arrival rate above which a downstream bottleneck rate σ′ no longer
    /// constrains it here (it is taken as +∞). σ′ is arithmetic on other processes' answers (÷ α, ÷ the share of calls),
    /// so while nothing downstream binds it can be any large number; passing it on would announce limits of millions
    /// per second for a workflow offering a hundred. A σ′ near the demand, where it matters, is kept, and so is any σ′
    /// while the workflow's demand (the larger of its arrival and admitted rates) is not yet measured.
    /// </summary>
    /// <value>4 (Algorithm 3 as written: +∞, every σ′ is kept). Values must be at least 1.</value>
    public double DownstreamHeadroom { get; set; } = 4;

    internal void Validate()
    {
        if (!(DownstreamHeadroom >= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(DownstreamHeadroom), DownstreamHeadroom, "Must be at least 1 (a multiple of the arrival rate), or +∞.");
        }

        if (string.IsNullOrWhiteSpace(ProcessId))
        {
            throw new ArgumentException("The process id must be set.", nameof(ProcessId));
        }

        RateAggregation.ValidateQuantile(Quantile);
        if (Interval <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(Interval), Interval, "Must be positive.");
        }

        if (QueryTimeout <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(QueryTimeout), QueryTimeout, "Must be positive.");
        }

        if (HoldTime < Interval)
        {
            throw new ArgumentOutOfRangeException(nameof(HoldTime), HoldTime, "Must be at least one interval.");
        }

        if (double.IsNaN(InitialRate) || InitialRate < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(InitialRate), InitialRate, "Must be non-negative (or +∞).");
        }
    }
}
