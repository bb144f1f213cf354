// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary><see cref="BottleneckFairnessOptions.OverloadHold"/>: a workflow cut in a real overload stays held.</summary>
public sealed partial class BottleneckFairnessPolicy
{
    // A held workflow counts in the sharing at this multiple of its load, so its σ can at most double per interval.
    private const double HeldDemandFactor = 2;

    // Per workflow slot: whether it is held.
    private bool[] _held = [];

    /// <summary>
    /// Starts holding workflow <paramref name="j"/>, cut where the bottleneck's demand stood at <paramref name="overload"/>
    /// (φ, negative), if it was limited already: the first cut of a workflow never limited (σ = +∞) does not start a hold.
    /// </summary>
    /// <remarks>
    /// Starting one there too, in the flood's first interval, took the simulated 10x flood under FIFO from 97.6% of
    /// capacity to 65.4%, with 310 of a compliant tenant's 2,464 requests timed out (docs/decisions/0011, eighth
    /// amendment): the level is then read from that interval's flood.
    /// </remarks>
    private void StartHold(int j, in WorkflowRateInputs workflow, double overload, bool flood, OverloadHoldOptions hold)
    {
        if (!(flood || overload < -hold.MinimumOverload) || !double.IsFinite(workflow.CurrentRate))
        {
            return;
        }

        if (_held.Length <= j)
        {
            Array.Resize(ref _held, Math.Max(j + 1, 16));
        }

        _held[j] = true;
    }

    /// <summary>
    /// Keeps each held workflow's σ at the rate that brings its load on every resource it uses to its max-min share of the
    /// hold's utilization of the target load; releases one that no longer uses its limit.
    /// </summary>
    private void ApplyHold(LocalRateInputs inputs, Span<double> localRates, OverloadHoldOptions hold)
    {
        var workflows = inputs.Workflows;
        var n = workflows.Length;
        if (_held.Length < n)
        {
            Array.Resize(ref _held, Math.Max(n, 16));
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

        // The bottleneck's scratch, free again by now: loads in one, the demands shared out and then the shares in the other.
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
                var load = loads[j] = Load(inputs, j, k);
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
            var utilization = others ? hold.Utilization : 1;
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
}
