// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// The allocator of bottleneck fairness (dissertation Algorithm 4, lines 2-15): with spare capacity, ramp every leaf
/// workflow up by β(1 + φ / n) and let every other workflow inherit σ′; under a bottleneck, compute max-min fair shares
/// of its capacity over the loads on it and move each contending workflow towards its share.
/// </summary>
/// <remarks>
/// Line 11's <c>ratio = shares_j · c / l_j</c> reads shares as fractions of the capacity, so the ratio is the workflow's
/// fair load over its current load. <see cref="MaxMinFairness"/> returns shares in permits, so here ratio = share ÷ l:
/// ratio ≥ 1 grows σ by β; ratio &lt; 1 multiplies σ by the ratio (or, with
/// <see cref="BottleneckFairnessOptions.UnlimitedUntilOverload"/>, cuts to the arrival rate × ratio).
/// </remarks>
internal sealed class FairShareAllocator
{
    private readonly double _probe;
    private readonly double _initialRate;
    private readonly double _minimumRate;
    private readonly double _smallestRatio;
    private readonly double _rampHeadroom;
    private readonly double _rampFactor;
    private readonly bool _unlimitedUntilOverload;
    private double[] _loads = [];
    private double[] _shares = [];

    /// <summary>Creates the allocator from the policy's (validated) options.</summary>
    public FairShareAllocator(BottleneckFairnessOptions options)
    {
        _probe = options.ProbeFactor;
        _initialRate = options.InitialRate;
        _minimumRate = options.MinimumRate;
        _smallestRatio = 1 - options.MaxDecrease;
        _rampHeadroom = options.RampHeadroom;
        _rampFactor = options.RampFactor;
        _unlimitedUntilOverload = options.UnlimitedUntilOverload;
    }

    /// <summary>Computes every workflow's local rate from the detector's reading: a ramp-up, or a share of the bottleneck.</summary>
    public void Allocate(RateControlInterval interval, Span<double> localRates)
    {
        var reading = interval.Reading;
        if (reading.Overloaded)
        {
            ShareBottleneck(interval, localRates, reading);
        }
        else
        {
            RampUp(interval, localRates, reading.Tightest, reading.Spare);
        }
    }

    private void RampUp(RateControlInterval interval, Span<double> localRates, int tightest, double spare)
    {
        var workflows = interval.Inputs.Workflows;
        var users = 0;
        for (var j = 0; tightest >= 0 && j < workflows.Length; j++)
        {
            users += interval.Load(j, tightest) > 0 ? 1 : 0;
        }

        // Line 5: the probe grows with the spare fraction, split among the workflows using k′.
        var step = _probe * (1 + (spare / Math.Max(1, users)));
        for (var j = 0; j < workflows.Length; j++)
        {
            var workflow = workflows[j];
            localRates[j] = workflow.IsLeaf
                ? Ramp(workflow, step, Math.Min(_rampFactor, spare), release: _unlimitedUntilOverload)
                : workflow.DownstreamRate; // Line 7: inherit the downstream rate σ′.
        }
    }

    /// <summary>Grows a leaf workflow's rate by the probe, holding it once it is well above what the workflow offers.</summary>
    private double Ramp(in WorkflowRateInputs workflow, double step, double growth, bool release)
    {
        var sigma = workflow.CurrentRate;
        if (_unlimitedUntilOverload && double.IsPositiveInfinity(sigma))
        {
            // Never limited, or released: with nothing overloaded there is no evidence to limit it on.
            return double.PositiveInfinity;
        }

        var from = sigma > 0 && double.IsFinite(sigma) ? sigma : Math.Max(_initialRate, workflow.AdmittedRate);

        // Rate validation: a rate already well above what the workflow offers is held, not grown further. The initial
        // rate is the floor of "what it offers": a workflow of a few requests per second is measured in whole requests
        // per interval (0 or 10/s at 100 ms), and a ceiling on that noise would refuse its next request.
        var ceiling = _rampHeadroom * Math.Max(_initialRate, workflow.ArrivalRate);
        if (from >= ceiling)
        {
            // With capacity spare, a limit the workflow no longer reaches protects nothing: lift it.
            return release ? double.PositiveInfinity : Math.Max(_minimumRate, from);
        }

        var grown = Math.Max(from + step, from * (1 + growth));
        return Math.Max(_minimumRate, _unlimitedUntilOverload ? Math.Min(ceiling, grown) : grown);
    }

    private void ShareBottleneck(RateControlInterval interval, Span<double> localRates, in OverloadReading reading)
    {
        var workflows = interval.Inputs.Workflows;
        var n = workflows.Length;
        if (_loads.Length < n)
        {
            _loads = new double[n];
            _shares = new double[n];
        }

        var loads = _loads.AsSpan(0, n);
        var shares = _shares.AsSpan(0, n);
        for (var j = 0; j < n; j++)
        {
            loads[j] = interval.Load(j, reading.Bottleneck);
        }

        // Line 9: max-min fair shares of c_k′ (times the target load and the utilization) over the loads on k′, in permits.
        MaxMinFairness.Allocate(loads, reading.Capacity, shares);
        DrainFromHeldBack(loads, shares, reading.Drain);
        var flood = reading.Flood;
        for (var j = 0; j < n; j++)
        {
            var workflow = workflows[j];
            var sigma = workflow.CurrentRate;
            if (!(loads[j] > 0))
            {
                localRates[j] = !workflow.IsLeaf ? workflow.DownstreamRate
                    : _unlimitedUntilOverload && double.IsPositiveInfinity(sigma) ? sigma
                    : Math.Max(_minimumRate, sigma);
                continue;
            }

            // Lines 11-15: ratio = fair load ÷ current load.
            var ratio = shares[j] / loads[j];
            if (ratio >= 1)
            {
                // Within its fair share: an unlimited workflow stays so; a limited one probes upwards, bounded.
                localRates[j] = _unlimitedUntilOverload ? Ramp(workflow, _probe, Math.Min(_rampFactor, ratio - 1), release: false)
                    : Math.Max(_minimumRate, Measured(workflow, sigma) + _probe);
                continue;
            }

            // Under a flood the cut goes to the fair level at once: halving 10x the capacity takes four intervals of it.
            ratio = Math.Max(ratio, flood ? 0 : _smallestRatio);
            interval.MarkCut(j);
            localRates[j] = Math.Max(_minimumRate, _unlimitedUntilOverload ? CutToLevel(workflow, sigma, ratio, flood ? 0 : _smallestRatio) : Measured(workflow, sigma) * ratio);
        }
    }

    /// <summary>
    /// Takes the backlog's drain out of the shares of the workflows held below their load, in proportion to their
    /// shares, at most the decrease limit of each: the backlog is theirs, and a workflow within its fair share keeps all
    /// it offers (taking the drain from the capacity before sharing would cut it too).
    /// </summary>
    private void DrainFromHeldBack(ReadOnlySpan<double> loads, Span<double> shares, double drain)
    {
        var held = 0.0;
        for (var j = 0; j < loads.Length; j++)
        {
            held += loads[j] > shares[j] ? shares[j] : 0;
        }

        if (!(drain > 0 && held > 0))
        {
            return;
        }

        for (var j = 0; j < loads.Length; j++)
        {
            if (loads[j] > shares[j])
            {
                shares[j] = Math.Max(shares[j] * _smallestRatio, shares[j] - (drain * shares[j] / held));
            }
        }
    }

    /// <summary>σ, or for a workflow never limited (σ = +∞) its measured admitted rate, else its arrival rate, else the initial rate.</summary>
    private double Measured(in WorkflowRateInputs workflow, double sigma) =>
        !double.IsPositiveInfinity(sigma) ? sigma
        : workflow.AdmittedRate > 0 ? workflow.AdmittedRate
        : workflow.ArrivalRate > 0 ? workflow.ArrivalRate
        : _initialRate;

    /// <summary>
    /// Moves σ to the rate that brings the workflow's load to its fair share, arrival rate × ratio, from the same
    /// interval's measures; never raises σ and never cuts more than the decrease limit at once. Multiplying σ instead
    /// compounds: the load lags the cut by an interval or more, so the same excess is cut again and again.
    /// </summary>
    private double CutToLevel(in WorkflowRateInputs workflow, double sigma, double ratio, double smallestRatio)
    {
        var measured = workflow.ArrivalRate > 0 ? workflow.ArrivalRate : Measured(workflow, sigma);
        var from = double.IsPositiveInfinity(sigma) ? measured : sigma;
        return Math.Min(from, Math.Max(measured * ratio, from * smallestRatio));
    }
}
