// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.FaultProxy;

/// <summary>
/// Waits the one-way delay plus uniform jitter in [-J, +J] (at least zero), and records what it really waited: timers
/// fire at about millisecond granularity, so the part under 2 ms is spun out on the clock rather than slept.
/// </summary>
internal sealed class DelayInjector(double delayMs, double jitterMs, int seed, TimeProvider time)
{
    private const int Kept = 1 << 16;
    private static readonly TimeSpan SpinBelow = TimeSpan.FromMilliseconds(2);
    private readonly Random _random = new(seed);
    private readonly Lock _lock = new();
    private readonly double[] _applied = new double[Kept];
    private long _count;

    public async ValueTask WaitAsync(CancellationToken cancellationToken)
    {
        double target;
        lock (_lock)
        {
            target = Math.Max(0, delayMs + (jitterMs * ((2 * _random.NextDouble()) - 1)));
        }

        var started = time.GetTimestamp();
        var wait = TimeSpan.FromMilliseconds(target);
        if (wait > SpinBelow)
        {
            await Task.Delay(wait - SpinBelow, time, cancellationToken);
        }

        while (time.GetElapsedTime(started) < wait)
        {
            Thread.SpinWait(20);
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
