// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Workloads;

/// <summary>A distribution of durations (service times, think times) built from a <see cref="DistributionSpec"/>.</summary>
/// <remarks>Immutable; samples come from the random source passed in, so the caller controls determinism.</remarks>
public sealed class TimeDistribution
{
    private readonly int _kind;
    private readonly double _mu;
    private readonly double _sigma;

    private TimeDistribution(int kind, double meanSeconds, double mu, double sigma)
    {
        _kind = kind;
        MeanSeconds = meanSeconds;
        _mu = mu;
        _sigma = sigma;
    }

    /// <summary>Gets the mean, in seconds.</summary>
    public double MeanSeconds { get; }

    /// <summary>Creates the distribution a spec describes.</summary>
    /// <param name="spec">A validated spec.</param>
    /// <returns>The distribution.</returns>
    /// <exception cref="ArgumentException">The kind is unknown.</exception>
    public static TimeDistribution From(DistributionSpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        var mean = spec.MeanMs / 1000;
        switch (spec.Distribution)
        {
            case DistributionKinds.Exponential:
                return new TimeDistribution(0, mean, 0, 0);
            case DistributionKinds.Constant:
                return new TimeDistribution(1, mean, 0, 0);
            case DistributionKinds.LogNormal:
                // Mean m and coefficient of variation cv: σ² = ln(1 + cv²), μ = ln m − σ²/2.
                var variance = Math.Log(1 + (spec.Cv * spec.Cv));
                return new TimeDistribution(2, mean, Math.Log(mean) - (variance / 2), Math.Sqrt(variance));
            default:
                throw new ArgumentException($"Unknown distribution '{spec.Distribution}'.", nameof(spec));
        }
    }

    /// <summary>Draws one duration.</summary>
    /// <param name="random">The random source.</param>
    /// <returns>Seconds, never negative.</returns>
    public double SampleSeconds(Random random)
    {
        ArgumentNullException.ThrowIfNull(random);
        switch (_kind)
        {
            case 0:
                return -Math.Log(1 - random.NextDouble()) * MeanSeconds;
            case 1:
                return MeanSeconds;
            default:
                // Box-Muller; one normal per call keeps the stream's consumption easy to reason about.
                var u1 = 1 - random.NextDouble();
                var u2 = random.NextDouble();
                var normal = Math.Sqrt(-2 * Math.Log(u1)) * Math.Cos(2 * Math.PI * u2);
                return Math.Exp(_mu + (_sigma * normal));
        }
    }
}
