// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>Options of the <see cref="DynamicSnitchSelector"/>; the defaults are Cassandra's.</summary>
public sealed class DynamicSnitchOptions
{
    /// <summary>Gets or sets how often the scores are recomputed from the latest latencies (Cassandra's <c>dynamic_snitch_update_interval</c>).</summary>
    /// <value>100 milliseconds.</value>
    public TimeSpan UpdateInterval { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// Gets or sets how often every latency sample and score is forgotten, so a replica that was slow gets another
    /// chance (Cassandra's <c>dynamic_snitch_reset_interval</c>).
    /// </summary>
    /// <value>10 minutes.</value>
    public TimeSpan ResetInterval { get; set; } = TimeSpan.FromMinutes(10);

    /// <summary>
    /// Gets or sets how much worse, as a fraction, the natural first replica's score may be than the best score before
    /// the selector leaves the natural order (Cassandra's <c>dynamic_snitch_badness_threshold</c>); 0 always takes the best.
    /// </summary>
    /// <value>0.1 (10 %).</value>
    public double BadnessThreshold { get; set; } = 0.1;

    /// <summary>
    /// Gets or sets the weight of a new latency sample in a replica's moving average; Cassandra keeps the median of a
    /// decaying reservoir instead, which this smooths like.
    /// </summary>
    /// <value>0.1.</value>
    public double SampleWeight { get; set; } = 0.1;

    internal void Validate()
    {
        if (UpdateInterval <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(UpdateInterval), UpdateInterval, "The update interval must be positive.");
        }

        if (ResetInterval < UpdateInterval)
        {
            throw new ArgumentOutOfRangeException(nameof(ResetInterval), ResetInterval, "The reset interval must be at least the update interval.");
        }

        if (!(BadnessThreshold >= 0) || !double.IsFinite(BadnessThreshold))
        {
            throw new ArgumentOutOfRangeException(nameof(BadnessThreshold), BadnessThreshold, "The badness threshold must be a non-negative number.");
        }

        if (!(SampleWeight > 0 && SampleWeight <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(SampleWeight), SampleWeight, "The weight of a new latency sample must be in (0, 1].");
        }
    }
}
