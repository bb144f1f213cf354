// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>Options of the <see cref="BackgroundAwareSelector"/> (Wu's thesis §4.3.1; defaults are the thesis's).</summary>
public sealed class BackgroundAwareOptions
{
    /// <summary>Gets or sets α of the tail value adjustment.</summary>
    /// <value>2.</value>
    public double TailFactor { get; set; } = 2;

    /// <summary>Gets or sets β, the weight of the queue-wait term.</summary>
    /// <value>10.</value>
    public double WaitTimeWeight { get; set; } = 10;

    /// <summary>Gets or sets the weight of a new sample in the EWMAs of queue size and wait time.</summary>
    /// <value>0.9.</value>
    public double EwmaWeight { get; set; } = 0.9;

    /// <summary>Gets or sets how often the tail-adjusted values are recomputed.</summary>
    /// <value>100 ms.</value>
    public TimeSpan AdjustmentInterval { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Gets or sets how many recent samples per replica and metric the tail adjustment looks at.</summary>
    /// <value>1000.</value>
    public int SampleWindow { get; set; } = 1000;

    /// <summary>
    /// Gets or sets how much a server's reported background activity (in [0, 1]) inflates its score: the score is
    /// multiplied by 1 + penalty × activity and raised by penalty × activity × its service time, so a replica busy
    /// compacting or collecting garbage is avoided, its local copy included.
    /// </summary>
    /// <value>10.</value>
    public double BackgroundPenalty { get; set; } = 10;

    internal void Validate()
    {
        if (!(TailFactor >= 1) || !double.IsFinite(TailFactor))
        {
            throw new ArgumentOutOfRangeException(nameof(TailFactor), TailFactor, "α must be at least 1.");
        }

        if (!(WaitTimeWeight >= 0) || !double.IsFinite(WaitTimeWeight))
        {
            throw new ArgumentOutOfRangeException(nameof(WaitTimeWeight), WaitTimeWeight, "β must be a non-negative number.");
        }

        if (!(EwmaWeight > 0 && EwmaWeight <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(EwmaWeight), EwmaWeight, "Must be in (0, 1].");
        }

        if (AdjustmentInterval <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(AdjustmentInterval), AdjustmentInterval, "Must be positive.");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(SampleWindow, 1, nameof(SampleWindow));
        if (!(BackgroundPenalty >= 0) || !double.IsFinite(BackgroundPenalty))
        {
            throw new ArgumentOutOfRangeException(nameof(BackgroundPenalty), BackgroundPenalty, "Must be a non-negative number.");
        }
    }
}
