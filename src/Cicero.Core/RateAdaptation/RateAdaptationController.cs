// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Diagnostics;
using Cicero.Model;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <summary>
/// Distributed rate adaptation at one process (dissertation Algorithm 3): every interval, pull each downstream
/// instance's rates, turn them into the request rates they imply here (÷ α and ÷ the instance's share of the calls),
/// take the q-quantile per service and the minimum over services (σ′), run the local policy (σ^local), and announce
/// σ = min(σ^local, σ′) to the admission controller and to callers.
/// </summary>
/// <remarks>
/// <para>
/// The algorithm is the synchronous pair <see cref="RecordAnswer"/> and <see cref="Step"/>, which a simulator calls
/// directly. <see cref="RunOnceAsync"/> and <see cref="Start"/> are the thin asynchronous adapter that queries an
/// <see cref="IDownstreamRateSource"/> on a timer of the injected <see cref="TimeProvider"/>.
/// </para>
/// <para>
/// A silent instance's last good answer is used for <see cref="RateAdaptationOptions.HoldTime"/>, then ignored; when a
/// service has no usable instance left, it stops constraining σ′ and the local policy decides alone
/// (<see cref="GetDownstreamStatus"/> reports which). Thread-safe.
/// </para>
/// </remarks>
public sealed class RateAdaptationController : IDisposable
{
    private readonly Lock _lock = new();
    private readonly RateAdaptationOptions _options;
    private readonly LocalModel _model;
    private readonly IRateLimitPolicy _policy;
    private readonly IDownstreamRateSource? _source;
    private readonly AdmissionController? _admission;
    private readonly TimeProvider _timeProvider;
    private readonly Dictionary<string, DownstreamService> _services = new(StringComparer.Ordinal);
    private readonly LocalRateInputs _inputs = new();
    private readonly double[] _announced;
    private readonly double[] _downstream;
    private readonly bool[] _stepped;
    private readonly long _holdTicks;
    private readonly long _freshTicks;
    private double[] _localRates = [];
    private double[] _values = new double[16];
    private ITimer? _timer;
    private CancellationTokenSource? _stopping;
    private int _running;
    private long _skippedTicks;

    /// <summary>Creates a controller.</summary>
    /// <param name="options">Process id, quantile, interval and hold time.</param>
    /// <param name="model">The process's local model; its intervals are closed by <see cref="Step"/>.</param>
    /// <param name="policy">The local rate-limit policy; <see cref="PassThroughRateLimitPolicy"/> when <see langword="null"/>.</param>
    /// <param name="source">The transport to downstream instances; needed only by <see cref="RunOnceAsync"/>.</param>
    /// <param name="admission">The admission controller that enforces the announced rates; optional.</param>
    /// <param name="timeProvider">The clock; the system clock when <see langword="null"/>.</param>
    public RateAdaptationController(
        RateAdaptationOptions options,
        LocalModel model,
        IRateLimitPolicy? policy = null,
        IDownstreamRateSource? source = null,
        AdmissionController? admission = null,
        TimeProvider? timeProvider = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(model);
        options.Validate();
        if (admission is not null && !ReferenceEquals(admission.Registry, model.Registry))
        {
            throw new ArgumentException("The admission controller uses another workflow registry.", nameof(admission));
        }

        _options = options;
        _model = model;
        _policy = policy ?? PassThroughRateLimitPolicy.Instance;
        _source = source;
        _admission = admission;
        _timeProvider = timeProvider ?? TimeProvider.System;
        var slots = model.Registry.SlotCapacity;
        _announced = new double[slots];
        _downstream = new double[slots];
        _stepped = new bool[slots];
        Array.Fill(_announced, options.InitialRate);
        Array.Fill(_downstream, double.PositiveInfinity);
        _holdTicks = ToTimestamp(options.HoldTime);
        _freshTicks = ToTimestamp(options.Interval * 2);
    }

    /// <summary>Gets the options.</summary>
    public RateAdaptationOptions Options => _options;

    /// <summary>Gets the number of control steps run.</summary>
    public long Steps { get; private set; }

    /// <summary>Gets the number of timer ticks skipped because the previous step was still running.</summary>
    public long SkippedTicks => Interlocked.Read(ref _skippedTicks);

    /// <summary>Gets the last exception thrown by a periodic step (for example by the local policy), if any.</summary>
    public Exception? LastError { get; private set; }

    /// <summary>Sets the instances of a downstream service this process calls (service discovery); others are forgotten.</summary>
    /// <param name="service">The service name.</param>
    /// <param name="instances">The instances; an empty list removes the service.</param>
    public void SetDownstreamInstances(string service, IEnumerable<string> instances)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(service);
        ArgumentNullException.ThrowIfNull(instances);
        lock (_lock)
        {
            var previous = _services.TryGetValue(service, out var existing) ? existing : null;
            var next = new DownstreamService();
            foreach (var name in instances)
            {
                ArgumentException.ThrowIfNullOrWhiteSpace(name, nameof(instances));
                if (next.Find(name) is not null)
                {
                    continue;
                }

                next.Instances.Add(previous?.Find(name) ?? new DownstreamInstanceState(name));
            }

            if (next.Instances.Count == 0)
            {
                _services.Remove(service);
            }
            else
            {
                _services[service] = next;
            }
        }
    }

    /// <summary>Gets every downstream instance this process polls.</summary>
    /// <returns>A snapshot.</returns>
    public IReadOnlyList<DownstreamInstance> GetDownstreamInstances()
    {
        lock (_lock)
        {
            var list = new List<DownstreamInstance>();
            foreach (var (service, state) in _services)
            {
                foreach (var instance in state.Instances)
                {
                    list.Add(new DownstreamInstance(service, instance.Name));
                }
            }

            return list;
        }
    }

    /// <summary>Stores a downstream instance's answer (Algorithm 3, line 2).</summary>
    /// <param name="instance">The instance that answered; unknown instances are ignored.</param>
    /// <param name="answer">Its rates for this process.</param>
    /// <param name="now">When it answered.</param>
    public void RecordAnswer(DownstreamInstance instance, DownstreamRateAnswer answer, long now)
    {
        ArgumentNullException.ThrowIfNull(answer);
        lock (_lock)
        {
            if (_services.TryGetValue(instance.Service, out var service) && service.Find(instance.Instance) is { } state)
            {
                state.Rates.Clear();
                foreach (var rate in answer.Rates)
                {
                    state.Rates[rate.Workflow.Value] = rate.Rate;
                }

                state.LastAnswer = now;
                state.ConsecutiveFailures = 0;
                state.Unsupported = false;
            }
        }
    }

    /// <summary>Notes that a downstream instance did not answer; its last good answer ages towards the hold time.</summary>
    /// <param name="instance">The silent instance.</param>
    public void RecordFailure(DownstreamInstance instance)
    {
        lock (_lock)
        {
            if (_services.TryGetValue(instance.Service, out var service) && service.Find(instance.Instance) is { } state)
            {
                state.ConsecutiveFailures++;
            }
        }
    }

    /// <summary>
    /// Notes that a downstream instance does not take part in rate exchange (it runs no Cicero): it limits nothing, and
    /// a service all of whose instances are like it reports <see cref="DownstreamStatus.Unsupported"/>.
    /// </summary>
    /// <param name="instance">The instance.</param>
    public void RecordUnsupported(DownstreamInstance instance)
    {
        lock (_lock)
        {
            if (_services.TryGetValue(instance.Service, out var service) && service.Find(instance.Instance) is { } state)
            {
                state.Unsupported = true;
                state.Rates.Clear();
                state.LastAnswer = long.MinValue;
            }
        }
    }

    /// <summary>
    /// Runs one control step: closes the model's interval, aggregates the downstream answers into σ′, runs the local
    /// policy, and announces σ = min(σ^local, σ′), pushing changed rates to the admission controller.
    /// </summary>
    /// <param name="now">The current timestamp.</param>
    public void Step(long now)
    {
        var registry = _model.Registry;
        var count = registry.Count;
        var changed = false;
        lock (_lock)
        {
            var seconds = _model.CloseInterval();
            var resources = _model.Resources;
            _inputs.Reset(seconds, count, resources.Count);
            for (var r = 0; r < resources.Count; r++)
            {
                _inputs.SetResource(r, new ResourceRateInputs(resources[r].Name, resources[r].Capacity, resources[r].TotalLoad)
                {
                    TotalDemand = resources[r].TotalDemand,
                    StandingQueueIntervals = resources[r].StandingQueueIntervals,
                    MeanServiceTime = MeanServiceTime(resources[r], registry, count),
                });
            }

            for (var i = 0; i < count; i++)
            {
                var slot = registry[i];
                var workflowModel = _model.Find(i);
                var downstream = workflowModel is null ? double.PositiveInfinity : AggregateDownstream(workflowModel, now);
                // Unmeasured demand (a cold model, a caller that records only admissions) is no evidence that σ′ is
                // far above it: the downstream's limit is kept.
                var demand = workflowModel is null ? 0 : Math.Max(workflowModel.ArrivalRate, workflowModel.AdmittedRate);
                _downstream[i] = demand > 0 && downstream > _options.DownstreamHeadroom * demand ? double.PositiveInfinity : downstream;
                _inputs.SetWorkflow(i, new WorkflowRateInputs(
                    slot, _announced[i], _downstream[i], workflowModel?.ArrivalRate ?? 0, workflowModel?.AdmittedRate ?? 0));
                for (var r = 0; r < resources.Count; r++)
                {
                    _inputs.SetLoad(i, r, resources[r].GetLoad(slot), resources[r].GetDemand(slot));
                }
            }

            if (_localRates.Length < count)
            {
                _localRates = new double[registry.SlotCapacity];
            }

            var local = _localRates.AsSpan(0, count);
            local.Fill(double.PositiveInfinity);
            _policy.ComputeLocalRates(_inputs, local, now);
            for (var i = 0; i < count; i++)
            {
                if (double.IsNaN(local[i]) || local[i] < 0)
                {
                    throw new InvalidOperationException(
                        $"Rate-limit policy {_policy.GetType().Name} returned {local[i]} for workflow '{registry[i].Id}'; rates must be non-negative (or +∞).");
                }
            }

            for (var i = 0; i < count; i++)
            {
                var announced = Math.Min(local[i], _downstream[i]);
                changed |= !_stepped[i] || !announced.Equals(_announced[i]);
                _announced[i] = announced;
                _stepped[i] = true;
            }

            RecordStatuses(now);
            Steps++;
        }

        if (changed && _admission is not null)
        {
            for (var i = 0; i < count; i++)
            {
                var rate = GetAnnouncedRate(i);
                if (!_admission.GetRate(registry[i].Id).Equals(rate))
                {
                    _admission.SetRate(registry[i], rate);
                }
            }
        }
    }

    /// <summary>Queries every downstream instance (in parallel, each bounded by the query timeout), then runs <see cref="Step"/>.</summary>
    /// <param name="cancellationToken">Stops the queries.</param>
    /// <returns>A task that completes when the step has run.</returns>
    public async Task RunOnceAsync(CancellationToken cancellationToken = default)
    {
        var targets = GetDownstreamInstances();
        if (_source is not null && targets.Count > 0)
        {
            var started = _timeProvider.GetTimestamp();
            using var timeout = new CancellationTokenSource(_options.QueryTimeout, _timeProvider);
            using var linked = CancellationTokenSource.CreateLinkedTokenSource(timeout.Token, cancellationToken);
            var pending = new Task<DownstreamRateAnswer>[targets.Count];
            for (var i = 0; i < targets.Count; i++)
            {
                pending[i] = Query(targets[i], linked.Token).AsTask();
            }

            for (var i = 0; i < targets.Count; i++)
            {
                try
                {
                    // One deadline for the whole round, so n silent instances cost one timeout, not n.
                    var remaining = _options.QueryTimeout - _timeProvider.GetElapsedTime(started);
                    var answer = await pending[i].WaitAsync(remaining > TimeSpan.Zero ? remaining : TimeSpan.Zero, _timeProvider, cancellationToken).ConfigureAwait(false);
                    RecordAnswer(targets[i], answer, _timeProvider.GetTimestamp());
                }
                catch (NotSupportedException) when (!cancellationToken.IsCancellationRequested)
                {
                    // The transport says the instance has no rate exchange at all (a service without Cicero).
                    RecordUnsupported(targets[i]);
                }
                catch (Exception) when (!cancellationToken.IsCancellationRequested)
                {
                    // A slow, failing or malformed downstream must not stop the loop; its answer ages instead.
                    RecordFailure(targets[i]);
                }
            }
        }

        Step(_timeProvider.GetTimestamp());
    }

    /// <summary>Starts running <see cref="RunOnceAsync"/> every interval on the injected clock.</summary>
    /// <exception cref="InvalidOperationException">Already started.</exception>
    public void Start()
    {
        lock (_lock)
        {
            if (_timer is not null)
            {
                throw new InvalidOperationException("The rate adaptation loop is already running.");
            }

            _stopping = new CancellationTokenSource();
            _timer = _timeProvider.CreateTimer(static state => ((RateAdaptationController)state!).OnTick(), this, _options.Interval, _options.Interval);
        }
    }

    /// <summary>Gets the rate σ announced for a workflow.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>Requests per second (+∞ for no limit); the initial rate before the first step.</returns>
    public double GetAnnouncedRate(WorkflowId workflow) =>
        _model.Registry.TryGet(workflow, out var slot) ? GetAnnouncedRate(slot.Index) : _options.InitialRate;

    /// <summary>Gets the downstream bottleneck rate σ′ of a workflow from the last step.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>Requests per second; +∞ when nothing downstream constrains it.</returns>
    public double GetDownstreamRate(WorkflowId workflow)
    {
        if (!_model.Registry.TryGet(workflow, out var slot))
        {
            return double.PositiveInfinity;
        }

        lock (_lock)
        {
            return _downstream[slot.Index];
        }
    }

    /// <summary>Gets how current a downstream service's answers are.</summary>
    /// <param name="service">The service name.</param>
    /// <returns>The status; <see cref="DownstreamStatus.Expired"/> for an unknown service.</returns>
    public DownstreamStatus GetDownstreamStatus(string service)
    {
        lock (_lock)
        {
            return _services.TryGetValue(service, out var state) ? ClassifyLocked(state, _timeProvider.GetTimestamp()) : DownstreamStatus.Expired;
        }
    }

    /// <summary>Gets the last good answer an instance gave for a workflow (Table 5.1's GetAdmissionRatesFromRemote).</summary>
    /// <param name="instance">The downstream instance.</param>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The rate, or <see langword="null"/> if the instance never answered for it.</returns>
    public double? GetRemoteRate(DownstreamInstance instance, WorkflowId workflow)
    {
        lock (_lock)
        {
            return _services.TryGetValue(instance.Service, out var service)
                && service.Find(instance.Instance) is { } state
                && state.Rates.TryGetValue(workflow.Value, out var rate)
                ? rate
                : null;
        }
    }

    /// <summary>
    /// Answers a caller's query (the downstream side of Algorithm 3): for each workflow, this process's σ in
    /// proportion to the caller's share of the demand (see <see cref="RateAggregation.ShareForCaller"/>). Workflows
    /// without a limit are left out.
    /// </summary>
    /// <param name="caller">The asking process's id.</param>
    /// <returns>The answer.</returns>
    public DownstreamRateAnswer GetAdmissionRatesFor(string caller)
    {
        ArgumentNullException.ThrowIfNull(caller);
        var registry = _model.Registry;
        var rates = new List<WorkflowRate>();
        lock (_lock)
        {
            var count = registry.Count;
            for (var i = 0; i < count; i++)
            {
                var sigma = _announced[i];
                if (!_stepped[i] || double.IsPositiveInfinity(sigma))
                {
                    continue;
                }

                var workflowModel = _model.Find(i);
                var granted = workflowModel is null
                    ? sigma
                    : RateAggregation.ShareForCaller(sigma, workflowModel.GetCallerRate(caller), workflowModel.ArrivalRate, workflowModel.CallerCount);
                rates.Add(new WorkflowRate(registry[i].Id, granted));
            }
        }

        return new DownstreamRateAnswer(rates);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        lock (_lock)
        {
            _timer?.Dispose();
            _timer = null;
            _stopping?.Cancel();
            _stopping?.Dispose();
            _stopping = null;
        }
    }

    private double GetAnnouncedRate(int index)
    {
        lock (_lock)
        {
            return _announced[index];
        }
    }

    private ValueTask<DownstreamRateAnswer> Query(DownstreamInstance target, CancellationToken cancellationToken)
    {
        try
        {
            return _source!.GetAdmissionRatesAsync(target, _options.ProcessId, cancellationToken);
        }
        catch (Exception ex)
        {
            return ValueTask.FromException<DownstreamRateAnswer>(ex);
        }
    }

    private void OnTick()
    {
        if (Interlocked.CompareExchange(ref _running, 1, 0) != 0)
        {
            Interlocked.Increment(ref _skippedTicks);
            return;
        }

        _ = RunTickAsync(_stopping?.Token ?? CancellationToken.None);
    }

    private async Task RunTickAsync(CancellationToken cancellationToken)
    {
        try
        {
            await RunOnceAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
        }
        catch (Exception ex)
        {
            // The loop must outlive a faulty policy; the error is kept for health checks.
            LastError = ex;
        }
        finally
        {
            Volatile.Write(ref _running, 0);
        }
    }

    private double AggregateDownstream(WorkflowModel workflowModel, long now)
    {
        var result = double.PositiveInfinity;
        var workflowId = workflowModel.Workflow.Value;
        foreach (var (serviceName, service) in _services)
        {
            if (!workflowModel.TryGetAmplification(serviceName, out var amplification))
            {
                // This workflow has not been seen calling the service, so the service does not constrain it.
                continue;
            }

            var usable = 0;
            var used = 0;
            foreach (var instance in service.Instances)
            {
                if (IsUsable(instance, now))
                {
                    usable++;
                    if (workflowModel.GetInstanceFraction(serviceName, instance.Name) > 0)
                    {
                        used++;
                    }
                }
            }

            if (usable == 0)
            {
                continue;
            }

            if (_values.Length < usable)
            {
                _values = new double[usable * 2];
            }

            var n = 0;
            var limitedOnly = _options.LimitedInstancesOnly ?? !double.IsPositiveInfinity(_options.DownstreamHeadroom);
            foreach (var instance in service.Instances)
            {
                if (!IsUsable(instance, now))
                {
                    continue;
                }

                // An instance that does not list the workflow does not limit it: it counts as +∞ in the quantile, or,
                // under the safe aggregation, not at all (a congested minority must not be outvoted by idle siblings).
                var answer = instance.Rates.TryGetValue(workflowId, out var listed) ? listed : double.PositiveInfinity;
                if (limitedOnly && double.IsPositiveInfinity(answer))
                {
                    continue;
                }

                // Only the instances this caller actually sends to speak for it; before any call, assume an even spread.
                var fraction = used > 0 ? workflowModel.GetInstanceFraction(serviceName, instance.Name) : 1.0 / usable;
                if (fraction > 0)
                {
                    _values[n++] = RateAggregation.ImpliedRequestRate(answer, amplification, Math.Min(1, fraction));
                }
            }

            if (n > 0)
            {
                result = Math.Min(result, RateAggregation.Quantile(_values.AsSpan(0, n), _options.Quantile));
            }
        }

        return result;
    }

    /// <summary>
    /// The resource's mean service time weighted by arrivals: Σ demand ÷ Σ (demand ÷ service time), since each
    /// workflow's demand is its sub-task arrival rate times its own mean service time.
    /// </summary>
    private static double MeanServiceTime(ResourceSemaphore resource, WorkflowRegistry registry, int count)
    {
        var demand = 0.0;
        var arrivals = 0.0;
        var unweighted = 0.0;
        for (var i = 0; i < count; i++)
        {
            var slot = registry[i];
            if (resource.GetServiceTime(slot) is not { } time || time <= TimeSpan.Zero)
            {
                continue;
            }

            var seconds = time.TotalSeconds;
            var workflowDemand = resource.GetDemand(slot);
            demand += workflowDemand;
            arrivals += workflowDemand / seconds;
            unweighted = Math.Max(unweighted, seconds);
        }

        // With no arrivals measured, the longest known service time errs towards the longer (more patient) window.
        return arrivals > 0 ? demand / arrivals : unweighted;
    }

    private bool IsUsable(DownstreamInstanceState instance, long now) =>
        instance.LastAnswer != long.MinValue && now - instance.LastAnswer <= _holdTicks;

    private DownstreamStatus ClassifyLocked(DownstreamService service, long now)
    {
        var fresh = 0;
        var usable = 0;
        var unsupported = 0;
        foreach (var instance in service.Instances)
        {
            if (instance.Unsupported)
            {
                unsupported++;
            }

            if (IsUsable(instance, now))
            {
                usable++;
                if (now - instance.LastAnswer <= _freshTicks)
                {
                    fresh++;
                }
            }
        }

        return unsupported > 0 && unsupported == service.Instances.Count ? DownstreamStatus.Unsupported
            : usable == 0 ? DownstreamStatus.Expired
            : fresh == service.Instances.Count ? DownstreamStatus.Fresh
            : DownstreamStatus.Holding;
    }

    private void RecordStatuses(long now)
    {
        if (!CiceroInstruments.DownstreamStatus.Enabled)
        {
            return;
        }

        foreach (var (name, service) in _services)
        {
            CiceroInstruments.DownstreamStatus.Record(
                (int)ClassifyLocked(service, now), new KeyValuePair<string, object?>(CiceroTelemetry.ServiceTag, name));
        }
    }

    private long ToTimestamp(TimeSpan span) => (long)(span.TotalSeconds * _timeProvider.TimestampFrequency);

    private sealed class DownstreamService
    {
        public List<DownstreamInstanceState> Instances { get; } = [];

        public DownstreamInstanceState? Find(string name)
        {
            foreach (var instance in Instances)
            {
                if (instance.Name == name)
                {
                    return instance;
                }
            }

            return null;
        }
    }

    private sealed class DownstreamInstanceState(string name)
    {
        public string Name { get; } = name;

        public Dictionary<string, double> Rates { get; } = new(StringComparer.Ordinal);

        public long LastAnswer { get; set; } = long.MinValue;

        public int ConsecutiveFailures { get; set; }

        public bool Unsupported { get; set; }
    }
}
