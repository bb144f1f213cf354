// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.FaultProxy;

/// <summary>
/// Waits the one-way delay plus uniform jitter in [-J, +J] (at least zero), and records what it really waited. Timers
/// count whole milliseconds (a shorter wait ends at once), so the target is rounded to a whole millisecond at random,
/// up with the probability of its fraction: the mean is kept, the resolution is 1 ms. Spinning out the fraction instead
/// starved the thread pool of a 2-core machine under a few hundred calls per second.
/// </summary>
internal sealed class DelayInjector(double delayMs, double jitterMs, int seed, TimeProvider time)
{
    private const int Kept = 1 << 16;
    private readonly Random _random = new(seed);
    private readonly Lock _lock = new();
    private readonly double[] _applied = new double[Kept];
    private long _count;

    public async ValueTask WaitAsync(CancellationToken cancellationToken)
    {
        double whole;
        lock (_lock)
        {
            var target = Math.Max(0, delayMs + (jitterMs * ((2 * _random.NextDouble()) - 1)));
            whole = Math.Floor(target) + (_random.NextDouble() < target - Math.Floor(target) ? 1 : 0);
        }

        var started = time.GetTimestamp();
        if (whole > 0)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(whole), time, cancellationToken);
        }

        var applied = time.GetElapsedTime(started).TotalMilliseconds;
        lock (_lock)
        {
            _applied[_count++ % Kept] = applied;
        }
    }

    /// <summary>One CSV line over the last delays applied: count, mean, p50, p99, max in ms.</summary>
    public string Describe()
    {
        double[] sample;
        long count;
        lock (_lock)
        {
            count = _count;
            sample = _applied[..(int)Math.Min(count, Kept)];
        }

        if (sample.Length == 0)
        {
            return "0,,,,";
        }

        Array.Sort(sample);
        return string.Create(CultureInfo.InvariantCulture, $"{count},{sample.Average():F3},{sample[sample.Length / 2]:F3},{sample[(int)(sample.Length * 0.99)]:F3},{sample[^1]:F3}");
    }
}
