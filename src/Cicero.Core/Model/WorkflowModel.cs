// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Measurement;
using Cicero.Workflows;

namespace Cicero.Model;

/// <summary>
/// What one process knows about one workflow (dissertation Table 5.2): arrival rate, demand per caller, amplification
/// α per downstream service and how calls spread over that service's instances, and the completion time L.
/// </summary>
/// <remarks>
/// Recording methods are thread-safe. Rates and averages change only when the owning <see cref="LocalModel"/> closes a
/// measurement interval, so a control step reads one consistent picture.
/// </remarks>
public sealed class WorkflowModel
{
    /// <summary>The caller name that demand from callers beyond the tracked bound folds into.</summary>
    internal const string OtherCallers = "cicero.other";

    private readonly LocalModelOptions _options;
    private readonly Lock _lock = new();
    private readonly Dictionary<string, CallerDemand> _callers = new(StringComparer.Ordinal);
    private readonly Dictionary<string, DownstreamCalls> _downstream = new(StringComparer.Ordinal);
    private readonly RateMeter _arrivals;
    private readonly RateMeter _admitted;
    private readonly RateMeter _succeeded;
    private readonly RateMeter _failed;
    private Ewma _completionSeconds;
    private double _completionSecondsValue;
    private Ewma _completionPerEstimatedSecond;
    private double _completionPerEstimatedSecondValue;
    private readonly OperationCompletionTimes _operations;
    private Ewma _totalServiceTime;
    private Ewma _totalLoad;
    private int _downstreamTargets;

    internal WorkflowModel(WorkflowSlot slot, LocalModelOptions options)
    {
        Slot = slot;
        _options = options;
        _arrivals = new RateMeter(options.EwmaWeight);
        _admitted = new RateMeter(options.EwmaWeight);
        _succeeded = new RateMeter(options.EwmaWeight);
        _failed = new RateMeter(options.EwmaWeight);
        _completionSeconds = new Ewma(options.SampleEwmaWeight);
        _completionPerEstimatedSecond = new Ewma(options.SampleEwmaWeight);
        _operations = new OperationCompletionTimes(options.SampleEwmaWeight);
        _totalServiceTime = new Ewma(options.SampleEwmaWeight);
        _totalLoad = new Ewma(options.SampleEwmaWeight);
    }

    /// <summary>Gets the workflow's registry slot.</summary>
    public WorkflowSlot Slot { get; }

    /// <summary>Gets the workflow id.</summary>
    public WorkflowId Workflow => Slot.Id;

    /// <summary>Gets the smoothed arrival rate, requests per second.</summary>
    public double ArrivalRate => _arrivals.Rate;

    /// <summary>Gets the smoothed rate of requests admitted (started) here, requests per second.</summary>
    public double AdmittedRate => _admitted.Rate;

    /// <summary>
    /// Gets how many requests admitted at this entry point ended well for their callers in the last closed interval
    /// (<see cref="RecordSucceeded"/>).
    /// </summary>
    internal long LastIntervalSucceeded => _succeeded.LastCount;

    /// <summary>
    /// Gets how many requests admitted at this entry point failed for their callers in the last closed interval
    /// (<see cref="RecordFailed"/>).
    /// </summary>
    internal long LastIntervalFailed => _failed.LastCount;

    /// <summary>Gets the average completion time L of an admitted request at this process.</summary>
    public TimeSpan CompletionTime => TimeSpan.FromSeconds(CompletionSeconds);

    /// <summary>Gets <see cref="CompletionTime"/> in seconds, without locking (the admission hot path reads it).</summary>
    internal double CompletionSeconds => Volatile.Read(ref _completionSecondsValue);

    /// <summary>
    /// Estimates how long <paramref name="context"/>'s request will take here once admitted: L for a request of this
    /// workflow's average size, scaled to the request's own size where it carries one.
    /// </summary>
    /// <remarks>
    /// L alone judges every request of a workflow by the average one, so where sizes differ (a tenant's 4 KB and 1 MB
    /// reads) a small request with a tight deadline is refused while a large one is let through. A request that carries
    /// its end-to-end estimate T (<see cref="RequestContext.EstimatedTotal"/>) is judged on time here per second of T,
    /// averaged over this workflow's completed requests that carried one, times its own T. The ratio also absorbs what
    /// T does not model, queueing under load and the overlap of parallel fan-out (st sums sibling sub-tasks). Without
    /// a T, or before a completion has taught the ratio, it is L. The estimate never exceeds L: an average of ratios is
    /// dominated by the requests with the smallest T, and under a flood it ran far above L and refused every request of
    /// the compliant tenants as infeasible (the 10x overload test under the safe defaults), so the scaled estimate may
    /// only make the test more lenient than L, never stricter.
    /// <para>
    /// The unit is the operation: where the request names one (<see cref="RequestContext.Operation"/>, the gRPC method
    /// the server interceptor serves it in), L is that operation's own, so a workflow's large calls of one method do not
    /// make its short calls of another infeasible. An operation that has not completed here yet has no estimate (0, as
    /// before a workflow's first completion); past <see cref="OperationCompletionTimes.MaxOperations"/> operations, and
    /// for requests that name none, L is the workflow's.
    /// </para>
    /// </remarks>
    /// <param name="context">The request.</param>
    /// <returns>The estimate in seconds; 0 before the first completion (of its operation, where it names one).</returns>
    internal double EstimateCompletionSeconds(RequestContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var completion = CompletionSeconds;
        if (context.Operation is { } operation)
        {
            if (_operations.TryGet(operation, out var own))
            {
                completion = own;
            }
            else if (_operations.HasRoom)
            {
                return 0;
            }
        }

        var perEstimatedSecond = Volatile.Read(ref _completionPerEstimatedSecondValue);
        var estimated = context.EstimatedTotal.ServiceTime;
        return perEstimatedSecond > 0 && estimated > 0 ? Math.Min(perEstimatedSecond * estimated, completion) : completion;
    }

    /// <summary>
    /// Gets the entry point's estimate T of the end-to-end totals (st, θ) of this workflow's requests, the average of
    /// the totals seen at completion; zero before the first completion.
    /// </summary>
    public ProgressDelta EstimatedTotal
    {
        get
        {
            lock (_lock)
            {
                return new ProgressDelta(_totalServiceTime.Value, _totalLoad.Value);
            }
        }
    }

    /// <summary>Folds the totals (a + b) of a request that completed end to end at this entry point into T.</summary>
    /// <param name="totals">The request's elapsed service time and load at completion.</param>
    internal void RecordEndToEndTotals(ProgressDelta totals)
    {
        lock (_lock)
        {
            _totalServiceTime.Update(totals.ServiceTime);
            _totalLoad.Update(totals.Load);
        }
    }

    /// <summary>Gets the number of distinct callers whose demand is tracked (at least 1).</summary>
    internal int CallerCount
    {
        get
        {
            lock (_lock)
            {
                return Math.Max(1, _callers.Count);
            }
        }
    }

    /// <summary>Counts an arriving request.</summary>
    /// <param name="caller">The calling process, if known; demand is tracked per caller for rate answers.</param>
    internal void RecordArrival(string? caller = null)
    {
        _arrivals.Increment();
        if (caller is null)
        {
            return;
        }

        lock (_lock)
        {
            if (!_callers.TryGetValue(caller, out var demand))
            {
                var key = _callers.Count < _options.MaxCallersPerWorkflow ? caller : OtherCallers;
                if (!_callers.TryGetValue(key, out demand))
                {
                    demand = new CallerDemand(_options.EwmaWeight);
                    _callers[key] = demand;
                }
            }

            demand.Count++;
        }
    }

    /// <summary>Counts a request admitted at this entry point whose caller got its result.</summary>
    /// <remarks>What entry points record of their callers' outcomes is what a policy can tell goodput from admissions by
    /// (<see cref="RateAdaptation.WorkflowRateInputs.Succeeded"/>).</remarks>
    internal void RecordSucceeded() => _succeeded.Increment();

    /// <summary>
    /// Counts a request admitted at this entry point that failed for its caller because the system could not serve it
    /// in time: it timed out, or was dropped further down.
    /// </summary>
    internal void RecordFailed() => _failed.Increment();

    /// <summary>Counts a request admitted to run here; calls per admitted request give the amplification α.</summary>
    public void RecordAdmitted() => _admitted.Increment();

    /// <summary>Folds a completed request's time since admission into L.</summary>
    /// <param name="duration">Admission to completion.</param>
    internal void RecordCompletion(TimeSpan duration)
    {
        lock (_lock)
        {
            _completionSeconds.Update(Math.Max(0, duration.TotalSeconds));
            Volatile.Write(ref _completionSecondsValue, _completionSeconds.Value);
        }
    }

    /// <summary>
    /// Folds a completed request's time since admission into L and, if it carried an end-to-end estimate T, into the
    /// time per second of T that <see cref="EstimateCompletionSeconds"/> scales each request's own T by.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="duration">Admission to completion.</param>
    internal void RecordCompletion(RequestContext context, TimeSpan duration)
    {
        ArgumentNullException.ThrowIfNull(context);
        var seconds = Math.Max(0, duration.TotalSeconds);
        var estimated = context.EstimatedTotal.ServiceTime;
        if (context.Operation is { } operation)
        {
            _operations.Record(operation, seconds);
        }

        lock (_lock)
        {
            _completionSeconds.Update(seconds);
            Volatile.Write(ref _completionSecondsValue, _completionSeconds.Value);
            if (estimated > 0 && double.IsFinite(estimated))
            {
                // One ratio per request, averaged: a large request's completion must not inflate a small one's estimate.
                _completionPerEstimatedSecond.Update(seconds / estimated);
                Volatile.Write(ref _completionPerEstimatedSecondValue, _completionPerEstimatedSecond.Value);
            }
        }
    }

    /// <summary>Counts a call to one instance of a downstream service.</summary>
    /// <param name="service">The downstream service.</param>
    /// <param name="instance">The instance the call went to.</param>
    public void RecordDownstreamCall(string service, string instance)
    {
        ArgumentNullException.ThrowIfNull(service);
        ArgumentNullException.ThrowIfNull(instance);
        lock (_lock)
        {
            if (!_downstream.TryGetValue(service, out var calls))
            {
                if (_downstreamTargets >= _options.MaxDownstreamTargets)
                {
                    return;
                }

                calls = new DownstreamCalls(_options.EwmaWeight);
                _downstream[service] = calls;
                _downstreamTargets++;
            }

            // Past the bound a new instance's spread is not tracked, but the call still counts towards α.
            calls.Count++;
            if (!calls.Instances.TryGetValue(instance, out var perInstance))
            {
                if (_downstreamTargets >= _options.MaxDownstreamTargets)
                {
                    return;
                }

                perInstance = new InstanceCalls(_options.EwmaWeight);
                calls.Instances[instance] = perInstance;
                _downstreamTargets++;
            }

            perInstance.Count++;
        }
    }

    /// <summary>Gets the amplification α: average calls to <paramref name="service"/> per admitted request.</summary>
    /// <param name="service">The downstream service.</param>
    /// <param name="amplification">α, once measured.</param>
    /// <returns><see langword="false"/> until a closed interval had both admitted requests and calls to the service.</returns>
    public bool TryGetAmplification(string service, out double amplification)
    {
        lock (_lock)
        {
            if (_downstream.TryGetValue(service, out var calls) && calls.Amplification.HasValue && calls.Amplification.Value > 0)
            {
                amplification = calls.Amplification.Value;
                return true;
            }
        }

        amplification = 0;
        return false;
    }

    /// <summary>Gets the smoothed fraction of this workflow's calls to <paramref name="service"/> that reach <paramref name="instance"/>.</summary>
    /// <param name="service">The downstream service.</param>
    /// <param name="instance">The instance.</param>
    /// <returns>The fraction in [0, 1]; 0 for an instance never called.</returns>
    internal double GetInstanceFraction(string service, string instance)
    {
        lock (_lock)
        {
            return _downstream.TryGetValue(service, out var calls) && calls.Instances.TryGetValue(instance, out var perInstance)
                ? perInstance.Fraction.Value
                : 0;
        }
    }

    /// <summary>Gets the smoothed demand from <paramref name="caller"/>, requests per second.</summary>
    /// <param name="caller">The calling process.</param>
    /// <returns>The rate; 0 for an unknown caller.</returns>
    internal double GetCallerRate(string caller)
    {
        lock (_lock)
        {
            return _callers.TryGetValue(caller, out var demand) || _callers.TryGetValue(OtherCallers, out demand) ? demand.Rate.Value : 0;
        }
    }

    internal void CloseInterval(double intervalSeconds)
    {
        _arrivals.CloseInterval(intervalSeconds);
        _admitted.CloseInterval(intervalSeconds);
        _succeeded.CloseInterval(intervalSeconds);
        _failed.CloseInterval(intervalSeconds);
        var admitted = _admitted.LastCount;
        lock (_lock)
        {
            foreach (var demand in _callers.Values)
            {
                demand.Rate.Update(demand.Count / intervalSeconds);
                demand.Count = 0;
            }

            foreach (var calls in _downstream.Values)
            {
                // An interval without admitted requests or calls says nothing about α or the spread; keep what we had.
                if (admitted > 0 && calls.Count > 0)
                {
                    calls.Amplification.Update((double)calls.Count / admitted);
                }

                if (calls.Count > 0)
                {
                    foreach (var perInstance in calls.Instances.Values)
                    {
                        perInstance.Fraction.Update((double)perInstance.Count / calls.Count);
                        perInstance.Count = 0;
                    }
                }

                calls.Count = 0;
            }
        }
    }

    private sealed class CallerDemand(double weight)
    {
        public long Count;
        public Ewma Rate = new(weight);
    }

    private sealed class DownstreamCalls(double weight)
    {
        public readonly Dictionary<string, InstanceCalls> Instances = new(StringComparer.Ordinal);
        public long Count;
        public Ewma Amplification = new(weight);
    }

    private sealed class InstanceCalls(double weight)
    {
        public long Count;
        public Ewma Fraction = new(weight);
    }
}
