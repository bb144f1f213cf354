// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>A token bucket refilled continuously at <see cref="Rate"/> up to <see cref="Burst"/>; not thread-safe.</summary>
internal sealed class TokenBucket
{
    private readonly long _frequency;
    private long _lastRefill;

    public TokenBucket(double rate, double burst, long now, long timestampFrequency)
    {
        _frequency = timestampFrequency;
        Rate = rate;
        Burst = burst;
        Tokens = burst;
        _lastRefill = now;
    }

    public double Rate { get; private set; }

    public double Burst { get; private set; }

    public double Tokens { get; private set; }

    public bool IsUnlimited => double.IsPositiveInfinity(Rate);

    public void Refill(long now)
    {
        if (now <= _lastRefill)
        {
            return;
        }

        Tokens = IsUnlimited ? Burst : Math.Min(Burst, Tokens + ((double)(now - _lastRefill) / _frequency * Rate));
        _lastRefill = now;
    }

    public bool TryTake()
    {
        if (IsUnlimited)
        {
            return true;
        }

        if (Tokens < 1)
        {
            return false;
        }

        Tokens -= 1;
        return true;
    }

    /// <summary>Gives back a token taken for a request that was refused instead of admitted.</summary>
    public void Return()
    {
        if (!IsUnlimited)
        {
            Tokens += 1;
        }
    }

    /// <summary>Gets how many requests' worth of tokens are missing before the next one can pass (0 when one can).</summary>
    public double Deficit => IsUnlimited ? 0 : Math.Max(0, 1 - Tokens);

    /// <summary>Gets the timestamps until <paramref name="tokens"/> more tokens have accrued; <see cref="long.MaxValue"/> at σ = 0.</summary>
    public long TimeUntil(double tokens)
    {
        if (tokens <= 0 || IsUnlimited)
        {
            return 0;
        }

        if (Rate <= 0)
        {
            return long.MaxValue;
        }

        return (long)Math.Ceiling(tokens / Rate * _frequency);
    }

    /// <summary>Changes rate and burst after refilling at the old rate, so tokens already earned are kept (up to the new burst).</summary>
    public void Reconfigure(double rate, double burst, long now)
    {
        Refill(now);
        // An unlimited bucket is always full, so one that becomes limited starts full too.
        var wasUnlimited = IsUnlimited;
        Rate = rate;
        Burst = burst;
        Tokens = wasUnlimited || IsUnlimited ? burst : Math.Min(Tokens, burst);
    }
}
