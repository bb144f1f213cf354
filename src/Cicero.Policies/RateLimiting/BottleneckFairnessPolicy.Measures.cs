// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>The measures bottleneck fairness judges by: averaged demand, the congestion window and the backlog's drain.</summary>
public sealed partial class BottleneckFairnessPolicy
{
    /// <summary>
    /// Averages the offered demand over the congestion window: where a sub-task takes longer than an interval, one
    /// interval sees a handful of arrivals or none, and demand read from it swings between 0 and several times the
    /// capacity. Where the window is the configured count of intervals, the measure is taken as it is. Beside it, each
    /// resource's total demand is also averaged over the demand smoothing time, which the congestion test reads short of a
    /// flood.
    /// </summary>
    private void Smooth(LocalRateInputs inputs)
    {
        var resources = inputs.Resources;
        var workflows = inputs.Workflows.Length;
        if (_resourceCount != resources.Length || _demand.Length < workflows * resources.Length)
        {
            // A new resource (or many new workflows) changes the layout: start the averages again.
            _resourceCount = resources.Length;
            _congested = new bool[resources.Length];
            _totalDemand = new double[resources.Length];
            _slowTotalDemand = new double[resources.Length];
            _demand = new double[Math.Max(workflows, 16) * resources.Length * 2];
            Array.Fill(_totalDemand, double.NaN);
            Array.Fill(_slowTotalDemand, double.NaN);
            Array.Fill(_demand, double.NaN);
            _noise = _confidence > 0 ? new DemandNoise[resources.Length] : [];
            Array.Fill(_noise, DemandNoise.Empty);
        }

        var intervalsPerMark = _smoothingSeconds > 0 ? Math.Max(1, (int)Math.Round(_smoothingSeconds / inputs.IntervalSeconds)) : 1;

        for (var k = 0; k < resources.Length; k++)
        {
            var window = CongestionWindow(resources[k], inputs.IntervalSeconds);
            var weight = window > _congestionIntervals && _congestionIntervals > 0 ? (double)_congestionIntervals / window : 1;
            if (_congestionServiceTimes > 0 && resources[k].MeanServiceTime > 0)
            {
                // A rate read from a handful of arrivals is mostly noise: average over about SmoothedArrivals of them.
                var arrivals = resources[k].TotalDemand / resources[k].MeanServiceTime * inputs.IntervalSeconds;
                weight = Math.Min(weight, Math.Clamp(arrivals / SmoothedArrivals, MinimumWeight, 1));
            }

            _totalDemand[k] = Average(_totalDemand[k], resources[k].TotalDemand, weight);
            if (_smoothingSeconds > 0)
            {
                // Read by the congestion test only when it is on.
                var slowWeight = Math.Min(weight, Math.Min(1, inputs.IntervalSeconds / _smoothingSeconds));
                var before = _slowTotalDemand[k];
                _slowTotalDemand[k] = Average(before, resources[k].TotalDemand, slowWeight);
                if (_confidence > 0)
                {
                    _noise[k].Record(resources[k].TotalDemand, before, resources[k].TotalLoad, slowWeight, intervalsPerMark);
                }
            }
            for (var j = 0; j < workflows; j++)
            {
                ref var demand = ref _demand[(j * _resourceCount) + k];
                demand = Average(demand, inputs.GetDemand(j, k), weight);
            }
        }
    }

    private static double Average(double average, double sample, double weight) =>
        double.IsNaN(average) ? sample : average + (weight * (sample - average));

    /// <summary>
    /// How many intervals the queue must stand: the configured count, or more where a sub-task holds a permit for long,
    /// so the window spans enough service completions (mean service time ÷ permits each) to tell overload from bunching.
    /// </summary>
    private int CongestionWindow(in ResourceRateInputs resource, double intervalSeconds)
    {
        if (!(_congestionServiceTimes > 0 && resource.MeanServiceTime > 0 && intervalSeconds > 0))
        {
            return _congestionIntervals;
        }

        var intervals = Math.Ceiling(_congestionServiceTimes * resource.MeanServiceTime / resource.Capacity / intervalSeconds);
        return (int)Math.Clamp(intervals, _congestionIntervals, 1000);
    }

    /// <summary>
    /// The permits whose release drains the resource's backlog in the drain time (RCP's queue term: a demand of
    /// c − W·s/τ shrinks a queue of W sub-tasks of service time s in τ). Waiting sub-tasks are the load above the
    /// capacity: with a standing queue every permit is held.
    /// </summary>
    private double Drain(in ResourceRateInputs resource)
    {
        if (!(_drainSeconds > 0 && resource.MeanServiceTime > 0))
        {
            return 0;
        }

        var waiting = Math.Max(0, resource.TotalLoad - resource.Capacity);
        return waiting * resource.MeanServiceTime / _drainSeconds;
    }

    private double Load(LocalRateInputs inputs, int workflow, int resource) =>
        _offeredDemand ? _demand[(workflow * _resourceCount) + resource] : inputs.GetLoad(workflow, resource);
}
