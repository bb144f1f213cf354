// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary><see cref="BottleneckFairnessOptions.OverloadHold"/>: a workflow cut in a real overload stays held.</summary>
internal sealed class OverloadHoldStage : RateControlStage
{
    // A held workflow counts in the sharing at this multiple of its load, so its σ can at most double per interval.
    private const double HeldDemandFactor = 2;

    private readonly OverloadHoldOptions _hold;
    private readonly double _minimumRate;
    private readonly double _smallestRatio;
    private readonly double _rampHeadroom;
    private readonly double _targetLoad;

    // Per workflow slot: whether it is held; and scratch for the loads and the shares.
    private bool[] _held = [];
    private double[] _loads = [];
    private double[] _shares = [];

    /// <summary>Creates the stage from the hold's options and the policy's (validated) options.</summary>
    public OverloadHoldStage(OverloadHoldOptions hold, BottleneckFairnessOptions options)
    {
        _hold = hold;
        _minimumRate = options.MinimumRate;
        _smallestRatio = 1 - options.MaxDecrease;
        _rampHeadroom = options.RampHeadroom;
        _targetLoad = options.TargetLoad;
    }

    /// <summary>
    /// Starts holding each workflow the allocator cut in a real overload, then keeps each held workflow's σ at the rate
    /// that brings its load on every resource it uses to its max-min share of the hold's utilization of the target load;
    /// releases one that no longer uses its limit.
    /// </summary>
    public override void Apply(RateControlInterval interval, Span<double> localRates)
    {
        var inputs = interval.Inputs;
        var workflows = inputs.Workflows;
        var n = workflows.Length;
        if (_held.Length < n)
        {
            Array.Resize(ref _held, Math.Max(n, 16));
        }

        var reading = interval.Reading;
        for (var j = 0; j < n; j++)
        {
            if (interval.WasCut(j))
            {
                StartHold(j, workflows[j].CurrentRate, reading.Overload, reading.Flood);
            }
        }

        var anyHeld = false;
        var headroom = double.IsFinite(_rampHeadroom) ? _rampHeadroom : HeldDemandFactor;
        for (var j = 0; j < n; j++)
        {
            var sigma = workflows[j].CurrentRate;
            // Released once no longer limited, or once its arrivals no longer reach its limit by the ramp's own headroom
            // (twice, where the ramp is unbounded, so a hold on Algorithm 4 as written still ends).
            _held[j] &= double.IsFinite(sigma) && sigma > 0 && workflows[j].ArrivalRate * headroom >= sigma;
            anyHeld |= _held[j];
        }

        if (!anyHeld)
        {
            return;
        }

        if (_loads.Length < n)
        {
            _loads = new double[n];
            _shares = new double[n];
        }

        var loads = _loads.AsSpan(0, n);
        var shares = _shares.AsSpan(0, n);
        var resources = inputs.Resources;
        for (var k = 0; k < resources.Length; k++)
        {
            if (!(resources[k].Capacity > 0))
            {
                continue;
            }

            var heldHere = false;
            var others = false;
            for (var j = 0; j < n; j++)
            {
                var load = loads[j] = interval.Load(j, k);
                var held = _held[j] && load > 0;
                heldHere |= held;
                others |= !held && load > 0;
                shares[j] = held ? load * HeldDemandFactor : load;
            }

            if (!heldHere)
            {
                continue;
            }

            // Holding a workflow below the target protects only the others: with nobody else on the resource, it may fill it.
            var utilization = others ? _hold.Utilization : 1;
            MaxMinFairness.Allocate(shares, resources[k].Capacity * _targetLoad * utilization, shares);
            for (var j = 0; j < n; j++)
            {
                var load = loads[j];
                if (!(_held[j] && load > 0))
                {
                    continue;
                }

                // From the admitted rate the load was measured at, not σ, which the load lags: multiplying σ by the same
                // ratio interval after interval would compound one excess into a collapse.
                var sigma = workflows[j].CurrentRate;
                var admitted = workflows[j].AdmittedRate > 0 ? workflows[j].AdmittedRate : sigma;
                var level = admitted * shares[j] / load;
                localRates[j] = Math.Max(_minimumRate, Math.Min(localRates[j], Math.Max(level, sigma * _smallestRatio)));
            }
        }
    }

    /// <summary>
    /// Starts holding workflow <paramref name="j"/>, cut where the bottleneck's demand stood at <paramref name="overload"/>
    /// (φ, negative), if it was limited already: the first cut of a workflow never limited (σ = +∞) does not start a hold.
    /// </summary>
    /// <remarks>
    /// Starting one there too, in the flood's first interval, took the simulated 10x flood under FIFO from 97.6% of
    /// capacity to 65.4%, with 310 of a compliant tenant's 2,464 requests timed out (docs/decisions/0011, eighth
    /// amendment): the level is then read from that interval's flood.
    /// </remarks>
    private void StartHold(int j, double sigma, double overload, bool flood)
    {
        if (!(flood || overload < -_hold.MinimumOverload) || !double.IsFinite(sigma))
        {
            return;
        }

        _held[j] = true;
    }
}
