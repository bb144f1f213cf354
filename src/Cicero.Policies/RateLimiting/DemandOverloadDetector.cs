// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// The overload detector of bottleneck fairness (dissertation Algorithm 4, line 1): finds the local resource k′ with the
/// least spare capacity φ = (target − load) ÷ target, and whether it is a bottleneck. A resource over its target is one
/// only once its queue has stood for the congestion window; with a drain time it stays one until its queue empties.
/// </summary>
/// <remarks>
/// With <see cref="BottleneckFairnessOptions.AsWritten"/> (held-and-waiting load, no window, no smoothing) this is
/// Algorithm 4's queue detector as written: any resource whose load exceeds its capacity is the bottleneck. The default
/// reads the offered demand, averaged over the congestion window and, short of a flood, over the demand smoothing time,
/// and excuses an average within its noise of the target (<see cref="BottleneckFairnessOptions.OverloadConfidence"/>).
/// </remarks>
internal sealed class DemandOverloadDetector
{
    // How many arrivals the smoothed demand spans at least (about 20% noise for Poisson arrivals), and the least weight
    // of a new interval in it (so the average still follows a change within a couple of seconds).
    private const double SmoothedArrivals = 30;
    private const double MinimumWeight = 0.05;

    // A backlog must grow by more than this fraction of the capacity (beside its noise) over one smoothing time to count
    // as overload: half a capacity of sub-tasks is more than bunching at a healthy resource leaves standing for that long.
    private const double BacklogGrowthFloor = 0.5;

    private readonly double _targetLoad;
    private readonly bool _offeredDemand;
    private readonly int _congestionIntervals;
    private readonly double _congestionServiceTimes;
    private readonly double _drainSeconds;
    private readonly double _utilization;
    private readonly double _smoothingSeconds;
    private readonly double _confidence;
    private bool[] _congested = [];
    private double[] _totalDemand = [];
    private double[] _slowTotalDemand = [];
    private double[] _demand = [];
    private DemandNoise[] _noise = [];
    private int _resourceCount;

    /// <summary>Creates the detector from the policy's (validated) options.</summary>
    public DemandOverloadDetector(BottleneckFairnessOptions options)
    {
        _targetLoad = options.TargetLoad;
        _offeredDemand = options.LoadSignal == BottleneckLoadSignal.OfferedDemand;
        _congestionIntervals = options.CongestionIntervals;
        _congestionServiceTimes = options.CongestionServiceTimes;
        _drainSeconds = options.QueueDrainTime.TotalSeconds;
        _utilization = options.BottleneckUtilization;
        _smoothingSeconds = options.DemandSmoothingTime.TotalSeconds;
        _confidence = options.OverloadConfidence;
    }

    /// <summary>Reads one interval: updates the averages and finds the bottleneck, or the tightest spare resource.</summary>
    public OverloadReading Detect(LocalRateInputs inputs)
    {
        var tightest = -1;
        var spare = 1.0;
        var bottleneck = -1;
        var overload = 0.0;
        var bottleneckCapacity = 0.0;
        var bottleneckDrain = 0.0;
        var resources = inputs.Resources;
        Smooth(inputs);
        for (var k = 0; k < resources.Length; k++)
        {
            ref readonly var resource = ref resources[k];
            if (resource.Capacity <= 0)
            {
                _congested[k] = false;
                continue;
            }

            var target = resource.Capacity * _targetLoad;
            var load = _offeredDemand ? _totalDemand[k] : resource.TotalLoad;
            if (_smoothingSeconds > 0 && _offeredDemand && load <= 2 * target)
            {
                // Short of a flood, overload is judged on the long average: a flood shows at once, and waiting for the
                // average to catch up with it would admit more of it.
                load = _slowTotalDemand[k];
                if (_confidence > 0 && _noise[k].Calm && !_noise[k].BacklogGrowing(_confidence, BacklogGrowthFloor * resource.Capacity))
                {
                    // Within its noise of the target, an average above it is no evidence of overload.
                    load = Math.Max(Math.Min(load, target), load - (_confidence * _noise[k].StandardError));
                }
            }

            var fraction = (target - load) / target;
            _congested[k] = _drainSeconds > 0 && _congested[k] && resource.StandingQueueIntervals > 0;
            // A flood (demand past twice the target) needs no patience: one interval of queue is evidence enough, and each
            // interval of waiting admits another interval of it into a backlog that every later request waits behind.
            var window = _congestionServiceTimes > 0 && fraction < -1 ? Math.Min(1, _congestionIntervals) : CongestionWindow(resource, inputs.IntervalSeconds);
            if (!_congested[k] && fraction < 0 && resource.StandingQueueIntervals >= window)
            {
                _congested[k] = true;
            }

            if (_congested[k])
            {
                if (_confidence > 0)
                {
                    _noise[k].Congested();
                }

                if (bottleneck < 0 || fraction < overload)
                {
                    bottleneck = k;
                    overload = fraction;
                    // Shares of the utilization's part of the target: a workflow between its share of that and its share of
                    // the whole target is held back too (taking the difference out of held-back shares alone left a
                    // workflow whose load sat just under its full share unlimited, and the resource saturated).
                    bottleneckCapacity = target * _utilization;
                    bottleneckDrain = Drain(resource);
                }
            }
            else if (tightest < 0 || Math.Max(0, fraction) < spare)
            {
                tightest = k;
                spare = Math.Max(0, fraction);
            }
        }

        return new OverloadReading(bottleneck, overload, bottleneckCapacity, bottleneckDrain, _congestionServiceTimes > 0 && overload < -1, tightest, spare);
    }

    /// <summary>The load a workflow puts on a resource: its averaged offered demand, or its held-and-waiting load.</summary>
    public double Load(LocalRateInputs inputs, int workflow, int resource) =>
        _offeredDemand ? _demand[(workflow * _resourceCount) + resource] : inputs.GetLoad(workflow, resource);

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
}
