// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>Options of the <see cref="CakeSloController"/> (Cake §5.3.1; defaults are the paper's).</summary>
public sealed class CakeSloOptions
{
    /// <summary>Gets the latency SLO of each latency-sensitive workflow by id; other workflows are treated as batch.</summary>
    public Dictionary<string, TimeSpan> Slos { get; } = new(StringComparer.Ordinal);

    /// <summary>Gets or sets the latency percentile compared with the SLO.</summary>
    /// <value>0.99.</value>
    public double Percentile { get; set; } = 0.99;

    /// <summary>Gets or sets how often allocations are revised.</summary>
    /// <value>10 s.</value>
    public TimeSpan Interval { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Gets or sets the normalized performance below which the workflow gets more allocation.</summary>
    /// <value>1.0: the SLO is missed.</value>
    public double LowerBound { get; set; } = 1.0;

    /// <summary>Gets or sets the normalized performance above which allocation is given back.</summary>
    /// <value>1.2.</value>
    public double UpperBound { get; set; } = 1.2;

    /// <summary>Gets or sets the largest change of share per interval, as a fraction of the current share.</summary>
    /// <value>0.1 (10 %).</value>
    public double MaxStepFraction { get; set; } = 0.1;

    /// <summary>Gets or sets the share above which a still-failing workflow gets a reservation instead.</summary>
    /// <value>0.99.</value>
    public double ReserveAboveShare { get; set; } = 0.99;

    /// <summary>Gets or sets the share below which a comfortable workflow gives back a reservation.</summary>
    /// <value>0.01.</value>
    public double ReleaseBelowShare { get; set; } = 0.01;

    /// <summary>Gets or sets the share a latency-sensitive workflow starts with.</summary>
    /// <value>0.5.</value>
    public double InitialShare { get; set; } = 0.5;

    /// <summary>Gets or sets the most latency samples kept per workflow and interval; later samples are counted but not stored.</summary>
    /// <value>4096.</value>
    public int MaxSamplesPerInterval { get; set; } = 4096;

    internal void Validate()
    {
        if (Slos.Count == 0)
        {
            throw new ArgumentException("The Cake SLO controller needs at least one workflow with a latency SLO (Slos).", nameof(Slos));
        }

        foreach (var (workflow, slo) in Slos)
        {
            if (slo <= TimeSpan.Zero)
            {
                throw new ArgumentOutOfRangeException(nameof(Slos), slo, $"The SLO of workflow '{workflow}' must be positive.");
            }
        }

        if (!(Percentile > 0 && Percentile <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(Percentile), Percentile, "Must be in (0, 1].");
        }

        if (Interval <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(Interval), Interval, "Must be positive.");
        }

        if (!(LowerBound > 0 && UpperBound >= LowerBound))
        {
            throw new ArgumentOutOfRangeException(nameof(UpperBound), UpperBound, "Need 0 < LowerBound ≤ UpperBound.");
        }

        if (!(MaxStepFraction > 0 && MaxStepFraction <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(MaxStepFraction), MaxStepFraction, "Must be in (0, 1].");
        }

        if (!(InitialShare > 0 && InitialShare < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(InitialShare), InitialShare, "Must be in (0, 1).");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(MaxSamplesPerInterval, 1, nameof(MaxSamplesPerInterval));
    }
}
