// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.RateAdaptation;

// Invariants (this file, RateAdaptationController.Downstream.cs and RateAdaptationController.Loop.cs):
// - The downstream table (DownstreamRates), the announced and downstream rates and the policy's scratch are read and
//   written under _lock; the timer loop (RateAdaptationTimer) keeps its own state.
// - _announced, _downstream and _stepped have one slot per workflow registry slot; a slot is valid once _stepped is set.
// - Announced σ = min(σ^local, σ′) and never NaN or negative: the policy's output is checked before it is announced.
// - Step is synchronous and does no I/O; only RunOnceAsync (Loop.cs) awaits, and it never holds _lock across an await.
// - Admission is told of changed rates outside _lock, so a callback into the controller cannot deadlock.

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
public sealed partial class RateAdaptationController : IDisposable
{
    private readonly Lock _lock = new();
    private readonly RateAdaptationOptions _options;
    private readonly LocalModel _model;
    private readonly IRateLimitPolicy _policy;
    private readonly IDownstreamRateSource? _source;
    private readonly AdmissionController? _admission;
    private readonly TimeProvider _timeProvider;
    private readonly DownstreamRates _downstreamRates;
    private readonly LocalRateInputs _inputs = new();
    private readonly double[] _announced;
    private readonly double[] _downstream;
    private readonly bool[] _stepped;
    private double[] _localRates = [];
    private readonly RateAdaptationTimer _loop;

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
        _loop = new RateAdaptationTimer(this, _timeProvider);
        _downstreamRates = new DownstreamRates(options, ToTimestamp(options.HoldTime), ToTimestamp(options.Interval * 2));
    }

    /// <summary>Gets the options.</summary>
    public RateAdaptationOptions Options => _options;

    /// <summary>Gets the number of control steps run.</summary>
    public long Steps { get; private set; }

    /// <summary>Gets the number of timer ticks skipped because the previous step was still running.</summary>
    internal long SkippedTicks => _loop.SkippedTicks;

    /// <summary>Gets the last exception thrown by a periodic step (for example by the local policy), if any.</summary>
    public Exception? LastError => _loop.LastError;

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
            ResourceReadings.Read(_inputs, resources, registry, count);

            for (var i = 0; i < count; i++)
            {
                var slot = registry[i];
                var workflowModel = _model.Find(i);
                var downstream = workflowModel is null ? double.PositiveInfinity : _downstreamRates.Aggregate(workflowModel, now);
                // Unmeasured demand (a cold model, a caller recording only admissions) is no evidence σ′ is far above it.
                var demand = workflowModel is null ? 0 : Math.Max(workflowModel.ArrivalRate, workflowModel.AdmittedRate);
                _downstream[i] = demand > 0 && downstream > _options.DownstreamHeadroom * demand ? double.PositiveInfinity : downstream;
                _inputs.SetWorkflow(i, new WorkflowRateInputs(
                    slot, _announced[i], _downstream[i], workflowModel?.ArrivalRate ?? 0, workflowModel?.AdmittedRate ?? 0)
                {
                    Succeeded = workflowModel?.LastIntervalSucceeded ?? 0,
                    Failed = workflowModel?.LastIntervalFailed ?? 0,
                });
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
                _admission?.InteriorShares.Arm(registry[i].Index, LocalBottleneckShare.Holds(_inputs, i, local[i]));
            }

            _downstreamRates.RecordStatuses(now);
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

    private double GetAnnouncedRate(int index)
    {
        lock (_lock)
        {
            return _announced[index];
        }
    }

    private long ToTimestamp(TimeSpan span) => (long)(span.TotalSeconds * _timeProvider.TimestampFrequency);
}
