// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Measurement;

/// <summary>Counts events and turns each closed interval's count into a rate, smoothed by an <see cref="Ewma"/>.</summary>
/// <remarks><see cref="Increment"/> is lock-free and may be called from any thread; <see cref="CloseInterval"/> from one.</remarks>
internal sealed class RateMeter
{
    private long _count;
    private Ewma _rate;
    private double _smoothed;

    /// <summary>Creates a meter.</summary>
    /// <param name="weight">The weight of a new interval's rate in the average.</param>
    public RateMeter(double weight)
    {
        _rate = new Ewma(weight);
    }

    /// <summary>Gets the smoothed rate, in events per second.</summary>
    public double Rate => Volatile.Read(ref _smoothed);

    /// <summary>Gets the rate measured over the last closed interval, in events per second.</summary>
    public double LastRate { get; private set; }

    /// <summary>Gets the events counted in the current interval.</summary>
    public long Pending => Interlocked.Read(ref _count);

    /// <summary>Gets the events counted in the last closed interval.</summary>
    public long LastCount { get; private set; }

    /// <summary>Counts events.</summary>
    /// <param name="count">How many.</param>
    public void Increment(long count = 1) => Interlocked.Add(ref _count, count);

    /// <summary>Closes the current interval and folds its rate into the average.</summary>
    /// <param name="intervalSeconds">The interval's length in seconds; must be positive.</param>
    public void CloseInterval(double intervalSeconds)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(intervalSeconds);
        LastCount = Interlocked.Exchange(ref _count, 0);
        LastRate = LastCount / intervalSeconds;
        _rate.Update(LastRate);
        Volatile.Write(ref _smoothed, _rate.Value);
    }
}
