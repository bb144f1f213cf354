// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// C3's per-replica rate control (Algorithm 2): a token bucket whose sending rate (requests per window δ) follows a
/// cubic curve towards the receive rate. When the client sends faster than the replica answers, the rate is cut to
/// rate × β and the saturation rate R0 remembered; when it answers faster, the rate grows along
/// γ·(ΔT − ∛(β·R0/γ))³ + R0 (steep far below R0, flat in the saddle near it, probing beyond), by at most s_max per
/// step. A decrease must wait the hysteresis period after an increase.
/// </summary>
/// <remarks>
/// <see cref="CubicRateOptions.Variant"/> chooses between Algorithm 2 as written (<see cref="CubicRateVariant.Published"/>),
/// the earlier production rule that cuts only a limit that binds (<see cref="CubicRateVariant.BindingLimit"/>) and
/// Cicero's production rule (<see cref="CubicRateVariant.DelayGuarded"/>, the default), which reads a binding limit
/// against the replica's response times: it grows the limit while the replica keeps up and cuts it once responses
/// queue (decision 0009); <see cref="CubicRateOptions.Increase"/> swaps the cubic increase for AIMD's or BIC's (dissertation Figure 4.20).
/// A state machine driven by timestamps; not thread-safe (the replica-group engine serialises calls).
/// </remarks>
public sealed class CubicRateController
{
    private readonly CubicRateOptions _options;
    private readonly double _frequency;
    private readonly long _window;
    private readonly long _hysteresis;
    private long _windowStart;
    private long _lastRefill;
    private long _lastDecrease;
    private long _lastIncrease;
    private int _received;
    private int _sent;
    private long _outstanding;
    private long _outstandingAfterResponse;
    private long _firstSendSinceResponse = long.MaxValue;
    private long _lastLimited = long.MinValue / 2;
    private double _probeStep;
    private readonly long _minResponsePeriod;
    private readonly long _healthySlack;
    private long _minResponse = long.MaxValue;
    private long _previousMinResponse = long.MaxValue;
    private long _minResponsePeriodStart;
    private long _lastSlowStart = long.MinValue / 2;
    private bool _everCut;
    private int _lastWindowReceived;

    /// <summary>The share of the last window's deliveries a cut goes down to, leaving the rest to drain the queue.</summary>
    private const double DrainFactor = 0.9;

    /// <summary>Creates a controller starting at the initial rate with a full bucket.</summary>
    /// <param name="options">The rate options.</param>
    /// <param name="timestampFrequency">Timestamps per second.</param>
    /// <param name="now">The current timestamp.</param>
    public CubicRateController(CubicRateOptions options, long timestampFrequency, long now)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        options.Validate();
        _options = options;
        _frequency = timestampFrequency;
        _window = Math.Max(1, (long)(options.Window.TotalSeconds * timestampFrequency));
        _hysteresis = (long)(options.HysteresisWindows * _window);
        SendingRate = options.InitialRate;
        SaturationRate = options.InitialRate;
        Tokens = options.MaxTokens;
        _minResponsePeriod = Math.Max(1, (long)(options.MinResponseTimeWindow.TotalSeconds * timestampFrequency));
        _healthySlack = (long)(options.HealthyResponseSlack.TotalSeconds * timestampFrequency);
        _windowStart = _lastRefill = _lastDecrease = _minResponsePeriodStart = now;
        _lastIncrease = long.MinValue / 2;
    }

    /// <summary>Gets the sending rate (srate), requests per window.</summary>
    public double SendingRate { get; private set; }

    /// <summary>Gets the smoothed receive rate (rrate), responses per window.</summary>
    public double ReceiveRate { get; private set; }

    /// <summary>Gets R0, the sending rate at the last decrease.</summary>
    public double SaturationRate { get; private set; }

    /// <summary>Gets how many times the limit held a request back: a check or a take that found no token.</summary>
    public long LimitedCount { get; private set; }

    /// <summary>Gets the tokens in the bucket at the last refill.</summary>
    public double Tokens { get; private set; }

    /// <summary>Gets whether a request may be sent now.</summary>
    /// <param name="now">The current timestamp.</param>
    /// <returns><see langword="true"/> if a token is available.</returns>
    public bool HasToken(long now)
    {
        Refill(now);
        if (Tokens >= 1)
        {
            return true;
        }

        _lastLimited = now;
        LimitedCount++;
        return false;
    }

    /// <summary>Takes a token if one is available.</summary>
    /// <param name="now">The current timestamp.</param>
    /// <returns><see langword="true"/> if a token was taken.</returns>
    public bool TryConsume(long now)
    {
        Refill(now);
        if (Tokens < 1)
        {
            _lastLimited = now;
            LimitedCount++;
            return false;
        }

        Tokens -= 1;
        _sent++;
        _outstanding++;
        if (_firstSendSinceResponse == long.MaxValue)
        {
            _firstSendSinceResponse = now;
        }

        return true;
    }

    /// <summary>Gets how long until a token is available, in timestamps (0 if one is).</summary>
    /// <param name="now">The current timestamp.</param>
    /// <returns>The wait.</returns>
    public long TimeUntilToken(long now)
    {
        Refill(now);
        return Tokens >= 1 ? 0 : (long)Math.Ceiling((1 - Tokens) / SendingRate * _window);
    }

    /// <summary>Records a response and adapts the sending rate (Algorithm 2, lines 3-11).</summary>
    /// <param name="now">When the response arrived.</param>
    /// <remarks>
    /// Without the response time, <see cref="CubicRateVariant.DelayGuarded"/> cannot tell queueing from a lagging
    /// receive rate and behaves as <see cref="CubicRateVariant.BindingLimit"/>; use <see cref="OnResponse(long, TimeSpan)"/>.
    /// </remarks>
    public void OnResponse(long now) => OnResponse(now, null);

    /// <summary>Records a response that took <paramref name="responseTime"/> from send to answer, and adapts the rate.</summary>
    /// <param name="now">When the response arrived.</param>
    /// <param name="responseTime">The response time the client measured.</param>
    public void OnResponse(long now, TimeSpan responseTime) => OnResponse(now, (long?)Math.Max(0, (long)(responseTime.TotalSeconds * _frequency)));

    private void OnResponse(long now, long? responseTicks)
    {
        if (_options.Variant == CubicRateVariant.DelayGuarded && responseTicks is { } ticks)
        {
            OnDelayGuardedResponse(now, ticks);
            return;
        }

        RollWindows(now);
        _received++;
        _outstanding = Math.Max(0, _outstanding - 1);
        _outstandingAfterResponse = _outstanding;
        _firstSendSinceResponse = long.MaxValue;

        // Only a limit that binds is cut: a client sending less than srate allows receives less than srate whatever the
        // replica can do, and cutting its limit then starved moderate clients (srate fell to the floor). Algorithm 2 as
        // written cuts regardless.
        var binding = _options.Variant == CubicRateVariant.Published || now - _lastLimited <= 2 * _window;
        if (binding && SendingRate > ReceiveRate && now - _lastIncrease > _hysteresis)
        {
            // Skipped while nothing has been received yet: a zero receive rate says nothing about the replica.
            if (ReceiveRate > 0)
            {
                Refill(now);
                SaturationRate = SendingRate;
                SendingRate = Math.Max(SendingRate * _options.Beta, _options.MinRate);
                _lastDecrease = now;
                _probeStep = 0;
            }
        }
        else if (SendingRate < ReceiveRate)
        {
            Refill(now);
            var elapsedMs = (now - _lastDecrease) * 1000.0 / _frequency;
            _lastIncrease = now;
            SendingRate = Math.Max(_options.MinRate, IncreasedRate(elapsedMs));
        }
    }

    /// <summary>
    /// <see cref="CubicRateVariant.DelayGuarded"/>: a limit that binds is a question, and the response time answers it.
    /// A response within the healthy bound (<see cref="CubicRateOptions.HealthyResponseFactor"/> × the fastest recent one
    /// + <see cref="CubicRateOptions.HealthyResponseSlack"/>) says the replica keeps up, so a binding limit grows; a slower
    /// one says requests queue there, so a binding limit is cut as Algorithm 2 cuts it. A limit that does not bind is
    /// left alone either way: the client's own demand, not the replica, sets what it receives then.
    /// </summary>
    private void OnDelayGuardedResponse(long now, long responseTicks)
    {
        RollWindows(now);
        _received++;
        _outstanding = Math.Max(0, _outstanding - 1);
        _outstandingAfterResponse = _outstanding;
        _firstSendSinceResponse = long.MaxValue;
        var healthy = ObserveResponseTime(now, responseTicks);
        if (now - _lastLimited > 2 * _window)
        {
            return;
        }

        if (!healthy)
        {
            // One cut per round trip: a slow response to a request sent before the last cut says nothing about the
            // rate since, and cutting on each of the queue's stragglers starved the replica.
            if (now - _lastIncrease > _hysteresis && now - responseTicks > _lastDecrease)
            {
                // Down to what the replica delivered in the last full window (a little under it, so the queue drains),
                // not below β × srate: a cut to β alone left a replica that was only just overloaded idle for most of
                // the cubic's climb back (about half its capacity unused in the overload test).
                Refill(now);
                SaturationRate = SendingRate;
                var delivered = DrainFactor * _lastWindowReceived;
                SendingRate = Math.Max(Math.Max(SendingRate * _options.Beta, Math.Min(SendingRate, delivered)), _options.MinRate);
                _lastDecrease = now;
                _probeStep = 0;
                _everCut = true;
            }

            return;
        }

        Refill(now);
        _lastIncrease = now;
        if (!_everCut)
        {
            // Slow start: nothing has shown this replica's limit yet, so the rate doubles once per window while the
            // replica keeps up, as TCP's does until its first loss.
            if (now - _lastSlowStart >= _window)
            {
                _lastSlowStart = now;
                SendingRate *= 2;
            }

            return;
        }

        var elapsedMs = (now - _lastDecrease) * 1000.0 / _frequency;
        SendingRate = Math.Max(SendingRate, Math.Max(_options.MinRate, IncreasedRate(elapsedMs)));
    }

    /// <summary>Keeps the fastest response time of the last one to two periods; says whether this one is healthy.</summary>
    private bool ObserveResponseTime(long now, long responseTicks)
    {
        if (now - _minResponsePeriodStart >= _minResponsePeriod)
        {
            _previousMinResponse = _minResponse;
            _minResponse = long.MaxValue;
            _minResponsePeriodStart = now;
        }

        _minResponse = Math.Min(_minResponse, responseTicks);
        var fastest = Math.Min(_minResponse, _previousMinResponse);
        return responseTicks <= (fastest * _options.HealthyResponseFactor) + _healthySlack;
    }

    private double IncreasedRate(double elapsedMs)
    {
        switch (_options.Increase)
        {
            case RateIncreaseRule.Additive:
                return SendingRate + _options.AdditiveStep;
            case RateIncreaseRule.BinarySearch:
                double step;
                if (SendingRate < SaturationRate)
                {
                    step = (SaturationRate - SendingRate) / 2;
                }
                else
                {
                    // Max probing past R0: slow-start-like steps that double while the replica keeps up.
                    _probeStep = _probeStep <= 0 ? _options.AdditiveStep : _probeStep * 2;
                    step = _probeStep;
                }

                return SendingRate + Math.Min(Math.Max(step, _options.AdditiveStep), _options.MaxStep);
            default:
                return Math.Min(SendingRate + _options.MaxStep, CubicRate(elapsedMs));
        }
    }

    /// <summary>The cubic curve: the rate ΔT ms after the last decrease, given R0.</summary>
    /// <param name="elapsedMs">ΔT in milliseconds.</param>
    /// <returns>γ·(ΔT − ∛(β·R0/γ))³ + R0.</returns>
    public double CubicRate(double elapsedMs)
    {
        var saddle = Math.Cbrt(_options.Beta * SaturationRate / _options.Gamma);
        var offset = elapsedMs - saddle;
        return (_options.Gamma * offset * offset * offset) + SaturationRate;
    }

    private void Refill(long now)
    {
        if (now > _lastRefill)
        {
            Tokens = Math.Min(_options.MaxTokens, Tokens + ((double)(now - _lastRefill) / _window * SendingRate));
            _lastRefill = now;
        }
    }

    private void RollWindows(long now)
    {
        var weight = _options.ReceiveRateWeight;
        var closed = (now - _windowStart) / _window;
        if (closed <= 0)
        {
            return;
        }

        // The window that just closed counts what was received; every empty window after it decays the rate, but only
        // if requests were sent meanwhile. An idle client learns nothing about the replica: decaying rrate through an
        // idle spell made the first responses afterwards look like a collapse and cut srate to its floor, stalling calls.
        var published = _options.Variant == CubicRateVariant.Published;
        if (published || _received > 0 || _sent > 0)
        {
            ReceiveRate = (weight * _received) + ((1 - weight) * ReceiveRate);
        }

        // Empty windows decay rrate only while the client was waiting on the replica: from the first send after the
        // last response, or throughout if requests were still outstanding then.
        var waiting = published || _outstandingAfterResponse > 0
            ? closed - 1
            : _firstSendSinceResponse == long.MaxValue ? 0 : Math.Min(closed - 1, (now - _firstSendSinceResponse) / _window);
        if (waiting > 0)
        {
            ReceiveRate *= Math.Pow(1 - weight, Math.Min(waiting, 10_000));
        }

        _lastWindowReceived = closed == 1 ? _received : 0;
        _received = 0;
        _sent = 0;
        _windowStart += closed * _window;
    }
}
