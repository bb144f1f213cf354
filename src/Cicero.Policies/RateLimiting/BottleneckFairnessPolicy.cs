// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// Bottleneck fairness (dissertation Algorithm 4, section 5.2.5): find the local resource k′ with the least spare
/// capacity φ = (c − Σl) / c. If it is not overloaded (φ ≥ 0), ramp every leaf workflow up by β(1 + φ / n), where n is
/// the number of workflows with load on k′, and let every other workflow inherit its downstream rate σ′. If it is
/// overloaded, compute max-min fair shares of c over the loads on k′ and scale each contending workflow towards its share.
/// </summary>
/// <remarks>
/// <para>
/// Line 11's <c>ratio = shares_j · c / l_j</c> reads shares as fractions of the capacity, so the ratio is the workflow's
/// fair load over its current load. <see cref="MaxMinFairness"/> returns shares in permits, so here ratio = share ÷ l:
/// ratio ≥ 1 (at or under its fair share) grows σ by β; ratio &lt; 1 multiplies σ by the ratio, which, with load in
/// proportion to rate, brings the workflow's load to its fair share in one step.
/// </para>
/// <para>
/// Readings where the algorithm is silent: with no resources (or none with a positive capacity) φ is 1; with nobody
/// loading k′, n is taken as 1. Under a bottleneck, a workflow with no load on k′ keeps its σ (a non-leaf one inherits
/// σ′, as in the spare branch). σ = +∞ means "never limited": under a bottleneck the cut starts from the measured
/// admitted rate (else the arrival rate, else <see cref="BottleneckFairnessOptions.InitialRate"/>); a ramp-up starts
/// from the larger of the initial rate and the admitted rate, as it does from σ = 0. Every rate the policy computes
/// is at least <see cref="BottleneckFairnessOptions.MinimumRate"/>.
/// </para>
/// <para>
/// Single-threaded by contract: the rate adaptation controller calls it once per interval. It reads no clock, does no
/// I/O and allocates nothing once its scratch and per-workflow arrays have grown to the number of workflows.
/// </para>
/// </remarks>
public sealed partial class BottleneckFairnessPolicy : IRateLimitPolicy
{
    // How many arrivals the smoothed demand spans at least (about 20% noise for Poisson arrivals), and the least weight
    // of a new interval in it (so the average still follows a change within a couple of seconds).
    private const double SmoothedArrivals = 30;
    private const double MinimumWeight = 0.05;

    private readonly double _probe;
    private readonly double _initialRate;
    private readonly double _minimumRate;
    private readonly double _smallestRatio;
    private readonly double _rampHeadroom;
    private readonly double _targetLoad;
    private readonly bool _offeredDemand;
    private readonly int _congestionIntervals;
    private readonly double _rampFactor;
    private readonly bool _unlimitedUntilOverload;
    private readonly double _congestionServiceTimes;
    private readonly double _drainSeconds;
    private readonly double _utilization;
    private readonly double _smoothingSeconds;
    private readonly double _confidence;
    private readonly HeldRateRegrowthOptions? _regrowth;
    private readonly OverloadHoldOptions? _hold;
    private readonly GoodputLimitOptions? _goodput;
    private double[] _loads = [];
    private bool[] _congested = [];
    private double[] _totalDemand = [];
    private double[] _slowTotalDemand = [];
    private double[] _demand = [];
    private int _resourceCount;
    private double[] _shares = [];

    /// <summary>Creates the policy.</summary>
    /// <param name="options">β, the initial rate and the floor; defaults when <see langword="null"/>.</param>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public BottleneckFairnessPolicy(BottleneckFairnessOptions? options = null)
    {
        options ??= new BottleneckFairnessOptions();
        options.Validate();
        _probe = options.ProbeFactor;
        _initialRate = options.InitialRate;
        _minimumRate = options.MinimumRate;
        _smallestRatio = 1 - options.MaxDecrease;
        _rampHeadroom = options.RampHeadroom;
        _targetLoad = options.TargetLoad;
        _offeredDemand = options.LoadSignal == BottleneckLoadSignal.OfferedDemand;
        _congestionIntervals = options.CongestionIntervals;
        _rampFactor = options.RampFactor;
        _unlimitedUntilOverload = options.UnlimitedUntilOverload;
        _congestionServiceTimes = options.CongestionServiceTimes;
        _drainSeconds = options.QueueDrainTime.TotalSeconds;
        _utilization = options.BottleneckUtilization;
        _smoothingSeconds = options.DemandSmoothingTime.TotalSeconds;
        _confidence = options.OverloadConfidence;
        _regrowth = options.HeldRateRegrowth?.Clone();
        _hold = options.OverloadHold?.Clone();
        _goodput = options.GoodputLimit?.Clone();
    }

    /// <summary>Creates a factory under the name <see cref="RateLimitPolicies.BottleneckFairness"/>.</summary>
    /// <param name="options">The options, validated now; defaults when <see langword="null"/>.</param>
    /// <returns>The factory; each process gets its own policy.</returns>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public static RateLimitPolicyFactory CreateFactory(BottleneckFairnessOptions? options = null) =>
        CreateFactory(RateLimitPolicies.BottleneckFairness, options ?? new BottleneckFairnessOptions());

    /// <summary>Creates a factory under a name of the caller's choice, for example <see cref="RateLimitPolicies.BottleneckFairnessAsWritten"/>.</summary>
    /// <param name="name">The configuration name.</param>
    /// <param name="options">The options, validated now.</param>
    /// <returns>The factory; each process gets its own policy.</returns>
    /// <exception cref="ArgumentException">The name is empty or the options are invalid.</exception>
    public static RateLimitPolicyFactory CreateFactory(string name, BottleneckFairnessOptions options)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(options);

        // A snapshot, so later edits to the options cannot make policies created afterwards differ or fail.
        options = options.Clone();
        options.Validate();
        return new BottleneckFairnessFactory(name, options);
    }

    /// <inheritdoc />
    public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
    {
        ArgumentNullException.ThrowIfNull(inputs);
        var workflows = inputs.Workflows;
        if (localRates.Length != workflows.Length)
        {
            throw new ArgumentException($"Expected {workflows.Length} rate slots (one per workflow), got {localRates.Length}.", nameof(localRates));
        }

        // Line 1: k′ = argmin φ_k, with φ measured against the target load (c at the default of 1). A resource over it
        // is a bottleneck only once its queue has stood for the congestion window; until then it is spare capacity
        // at φ = 0, so nothing grows faster than the probe on it either. With a drain time, a bottleneck stays one until
        // its queue empties, sharing the capacity less what drains its backlog.
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
                if (_confidence > 0 && _noise[k].Calm && !BacklogGrowing(k, resource.Capacity))
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

        if (bottleneck < 0)
        {
            RampUp(inputs, localRates, tightest, spare);
        }
        else
        {
            ShareBottleneck(inputs, localRates, bottleneck, bottleneckCapacity, bottleneckDrain, overload, flood: _congestionServiceTimes > 0 && overload < -1);
        }

        if (_regrowth is not null)
        {
            LimitRegrowth(inputs, localRates, _regrowth);
        }

        if (_hold is not null)
        {
            ApplyHold(inputs, localRates, _hold);
        }

        if (_goodput is not null)
        {
            LimitToGoodput(inputs, localRates, _goodput);
        }
    }

    private void RampUp(LocalRateInputs inputs, Span<double> localRates, int tightest, double spare)
    {
        var workflows = inputs.Workflows;
        var users = 0;
        for (var j = 0; tightest >= 0 && j < workflows.Length; j++)
        {
            users += Load(inputs, j, tightest) > 0 ? 1 : 0;
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

    private void ShareBottleneck(LocalRateInputs inputs, Span<double> localRates, int tightest, double capacity, double drain, double overload, bool flood)
    {
        var workflows = inputs.Workflows;
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
            loads[j] = Load(inputs, j, tightest);
        }

        // Line 9: max-min fair shares of c_k′ (times the target load and the utilization) over the loads on k′, in permits.
        MaxMinFairness.Allocate(loads, capacity, shares);
        DrainFromHeldBack(loads, shares, drain);
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
            if (_hold is not null)
            {
                StartHold(j, workflow, overload, flood, _hold);
            }

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

    private sealed class BottleneckFairnessFactory(string name, BottleneckFairnessOptions options) : RateLimitPolicyFactory
    {
        public override string Name => name;

        public override IRateLimitPolicy Create(RateLimitPolicyContext context) => new BottleneckFairnessPolicy(options);
    }
}
