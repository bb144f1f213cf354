// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Internal;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.Admission;

/// <summary>
/// Per-workflow admission: a token bucket at the workflow's rate σ with a bounded queue, and an <see cref="IDropPolicy"/>
/// consulted as each request arrives. Every rejection carries a <see cref="DropReason"/>.
/// </summary>
/// <remarks>
/// Thread-safe. Admitting without waiting completes synchronously and allocates nothing. Queued requests are released
/// by one timer on the injected <see cref="TimeProvider"/>, so a virtual clock drives them deterministically.
/// </remarks>
public sealed class AdmissionController : IWaitNodeOwner<AdmissionResult, RequestContext>, IDisposable
{
    private readonly Lock _lock = new();
    private readonly TimeProvider _timeProvider;
    private readonly AdmissionOptions _options;
    private readonly IDropPolicy _dropPolicy;
    private readonly LocalModel? _model;
    private readonly WorkflowLimiter?[] _limiters;
    private readonly List<int> _waiting = [];
    private readonly Stack<WaitNode<AdmissionResult, RequestContext>> _pool = new();
    private readonly ITimer _timer;
    private long _timerDue = long.MaxValue;

    /// <summary>Creates an admission controller.</summary>
    /// <param name="registry">The process's workflow registry.</param>
    /// <param name="dropPolicy">The drop rule; <see cref="DeadlineFeasibilityDropPolicy"/> when <see langword="null"/>.</param>
    /// <param name="model">The local model to report arrivals and admissions to, and to read L from; optional.</param>
    /// <param name="timeProvider">The clock; the system clock when <see langword="null"/>.</param>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    public AdmissionController(
        WorkflowRegistry registry,
        IDropPolicy? dropPolicy = null,
        LocalModel? model = null,
        TimeProvider? timeProvider = null,
        AdmissionOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(registry);
        _options = options ?? new AdmissionOptions();
        _options.Validate();
        if (model is not null && !ReferenceEquals(model.Registry, registry))
        {
            throw new ArgumentException("The model uses another workflow registry.", nameof(model));
        }

        Registry = registry;
        _dropPolicy = dropPolicy ?? DeadlineFeasibilityDropPolicy.Instance;
        _model = model;
        _timeProvider = timeProvider ?? TimeProvider.System;
        _limiters = new WorkflowLimiter?[registry.SlotCapacity];
        _timer = _timeProvider.CreateTimer(static state => ((AdmissionController)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    /// <summary>Gets the workflow registry.</summary>
    public WorkflowRegistry Registry { get; }

    /// <summary>Admits the request now or rejects it; never waits.</summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known; its demand share shapes the rates announced back to it.</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    public AdmissionResult TryAdmit(RequestContext context, string? caller = null) =>
        AdmitCore(context, caller, queue: false, null, default, out _);

    /// <summary>Like <see cref="TryAdmit(RequestContext, string?)"/>, as of a timestamp of this controller's clock the caller already read.</summary>
    internal AdmissionResult TryAdmit(RequestContext context, string? caller, long now) =>
        AdmitCore(context, caller, queue: false, now, default, out _);

    /// <summary>Admits the request, waiting in the workflow's bounded queue for a token if the drop policy allows.</summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    /// <exception cref="OperationCanceledException">The wait was cancelled.</exception>
    public ValueTask<AdmissionResult> AdmitAsync(RequestContext context, string? caller = null, CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<AdmissionResult>(cancellationToken);
        }

        return AdmitAsync(context, caller, null, cancellationToken);
    }

    /// <summary>Like <see cref="AdmitAsync(RequestContext, string?, CancellationToken)"/>, as of a timestamp of this controller's clock the caller already read.</summary>
    internal ValueTask<AdmissionResult> AdmitAsync(RequestContext context, string? caller, long? now, CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<AdmissionResult>(cancellationToken);
        }

        var result = AdmitCore(context, caller, queue: true, now, cancellationToken, out var waiter);
        if (waiter is null)
        {
            return new ValueTask<AdmissionResult>(result);
        }

        waiter.RegisterCancellation();
        return waiter.AsValueTask();
    }

    /// <summary>Gets a workflow's admission rate σ.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The rate, requests per second.</returns>
    public double GetRate(WorkflowId workflow) => GetProperties(workflow).Rate;

    /// <summary>Sets a workflow's admission rate σ, keeping its burst setting and queue bound.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="rate">Requests per second; +∞ for no limit.</param>
    public void SetRate(WorkflowId workflow, double rate) => SetRate(Registry.Resolve(workflow), rate);

    /// <summary>Sets a workflow's admission rate σ.</summary>
    /// <param name="workflow">The workflow's slot.</param>
    /// <param name="rate">Requests per second; +∞ for no limit.</param>
    public void SetRate(WorkflowSlot workflow, double rate)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        double? burst;
        int queueLimit;
        lock (_lock)
        {
            var limiter = GetLimiter(workflow.Index, _timeProvider.GetTimestamp());
            burst = limiter.ExplicitBurst;
            queueLimit = limiter.QueueLimit;
        }

        Configure(workflow, new RateLimiterProperties(rate, burst, queueLimit));
    }

    /// <summary>Gets a workflow's limiter properties.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>Rate, burst and queue bound.</returns>
    public RateLimiterProperties GetProperties(WorkflowId workflow)
    {
        var slot = Registry.Resolve(workflow);
        lock (_lock)
        {
            var limiter = GetLimiter(slot.Index, _timeProvider.GetTimestamp());
            return new RateLimiterProperties(limiter.Bucket.Rate, limiter.Bucket.Burst, limiter.QueueLimit);
        }
    }

    /// <summary>Creates or reconfigures a workflow's limiter (Table 5.1's CreateRateLimiter and SetRateLimiterProperty).</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="properties">Rate, burst and queue bound.</param>
    public void Configure(WorkflowId workflow, RateLimiterProperties properties) => Configure(Registry.Resolve(workflow), properties);

    /// <summary>Gets the number of a workflow's requests waiting for a token.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The queue length.</returns>
    public int GetQueueLength(WorkflowId workflow)
    {
        if (!Registry.TryGet(workflow, out var slot))
        {
            return 0;
        }

        lock (_lock)
        {
            return _limiters[slot.Index]?.Queue.Count ?? 0;
        }
    }

    /// <summary>Stops the controller: queued requests complete with <see cref="ObjectDisposedException"/> rather than hang.</summary>
    public void Dispose()
    {
        _timer.Dispose();
        List<WaitNode<AdmissionResult, RequestContext>>? abandoned = null;
        lock (_lock)
        {
            foreach (var index in _waiting)
            {
                var queue = _limiters[index]!.Queue;
                while (queue.TryPopFront(out var node))
                {
                    node!.IsQueued = false;
                    (abandoned ??= []).Add(node);
                }

                _limiters[index]!.IsWaitingListed = false;
            }

            _waiting.Clear();
        }

        if (abandoned is null)
        {
            return;
        }

        foreach (var node in abandoned)
        {
            RecordQueueLength(-1);
            node.SetException(new ObjectDisposedException(nameof(AdmissionController), "The admission controller was disposed while the request waited."));
        }
    }

    void IWaitNodeOwner<AdmissionResult, RequestContext>.OnCancelled(WaitNode<AdmissionResult, RequestContext> node)
    {
        lock (_lock)
        {
            if (!node.IsQueued)
            {
                return;
            }

            var queue = _limiters[node.Tag]!.Queue;
            for (var i = 0; i < queue.Count; i++)
            {
                if (ReferenceEquals(queue[i], node))
                {
                    queue.RemoveAt(i);
                    break;
                }
            }

            node.IsQueued = false;
        }

        RecordQueueLength(-1);
        node.SetCanceled();
    }

    void IWaitNodeOwner<AdmissionResult, RequestContext>.Return(WaitNode<AdmissionResult, RequestContext> node)
    {
        lock (_lock)
        {
            if (_pool.Count < 256)
            {
                _pool.Push(node);
            }
        }
    }

    private void Configure(WorkflowSlot workflow, RateLimiterProperties properties)
    {
        properties.Validate();
        lock (_lock)
        {
            var now = _timeProvider.GetTimestamp();
            var limiter = GetLimiter(workflow.Index, now);
            limiter.ExplicitBurst = properties.Burst;
            limiter.QueueLimit = properties.QueueLimit;
            limiter.Bucket.Reconfigure(properties.Rate, BurstFor(properties.Rate, properties.Burst), now);
            ArmTimerLocked(now);
        }

        if (CiceroInstruments.AdmissionRate.Enabled)
        {
            CiceroInstruments.AdmissionRate.Record(properties.Rate, new KeyValuePair<string, object?>(CiceroTelemetry.WorkflowTag, workflow.Id.Value));
        }

        // A higher rate may let waiters through before the timer would have.
        OnTimer();
    }

    private AdmissionResult AdmitCore(
        RequestContext context,
        string? caller,
        bool queue,
        long? now,
        CancellationToken cancellationToken,
        out WaitNode<AdmissionResult, RequestContext>? waiter)
    {
        ArgumentNullException.ThrowIfNull(context);
        waiter = null;
        var slot = Registry.Resolve(context);
        var workflowModel = _model?.Get(slot);
        workflowModel?.RecordArrival(caller);
        var at = now ?? _timeProvider.GetTimestamp();
        DropReason reason;
        lock (_lock)
        {
            var limiter = GetLimiter(slot.Index, at);
            var bucket = limiter.Bucket;
            bucket.Refill(at);
            var candidate = new AdmissionCandidate(
                context,
                slot,
                at,
                _timeProvider.TimestampFrequency,
                workflowModel?.EstimateCompletionSeconds(context) ?? 0,
                limiter.Queue.Count + bucket.Deficit,
                bucket.Rate,
                limiter.Queue.Count,
                limiter.QueueLimit);
            var decision = _dropPolicy.Evaluate(candidate, at);
            if (decision.IsDrop && IsProbe(decision, candidate, limiter, at))
            {
                limiter.LastProbeAt = at;
                decision = DropDecision.Admit;
            }

            if (decision.IsDrop)
            {
                reason = decision.Reason;
            }
            else if (limiter.Queue.Count == 0 && bucket.TryTake())
            {
                limiter.LastAdmittedAt = at;
                reason = DropReason.None;
            }
            else if (!queue || limiter.Queue.Count >= limiter.QueueLimit)
            {
                reason = DropReason.RateLimited;
            }
            else
            {
                waiter = _pool.Count > 0 ? _pool.Pop() : new WaitNode<AdmissionResult, RequestContext>(this);
                waiter.Reset(_options.RunContinuationsAsynchronously, cancellationToken);
                waiter.Tag = slot.Index;
                waiter.Payload = context;
                limiter.Queue.PushBack(waiter);
                if (!limiter.IsWaitingListed)
                {
                    limiter.IsWaitingListed = true;
                    _waiting.Add(slot.Index);
                }

                ArmTimerLocked(at);
                reason = DropReason.None;
            }
        }

        if (waiter is not null)
        {
            RecordQueueLength(1);
            return default;
        }

        RecordOutcome(slot, workflowModel, reason);
        return new AdmissionResult(reason);
    }

    private void OnTimer()
    {
        List<(WaitNode<AdmissionResult, RequestContext> Node, WorkflowSlot Slot)>? released = null;
        lock (_lock)
        {
            var now = _timeProvider.GetTimestamp();
            _timerDue = long.MaxValue;
            for (var i = _waiting.Count - 1; i >= 0; i--)
            {
                var index = _waiting[i];
                var limiter = _limiters[index]!;
                limiter.Bucket.Refill(now);
                while (limiter.Queue.Count > 0 && limiter.Bucket.TryTake())
                {
                    limiter.LastAdmittedAt = now;
                    limiter.Queue.TryPopFront(out var node);
                    node!.IsQueued = false;
                    (released ??= []).Add((node, Registry[index]));
                }

                if (limiter.Queue.Count == 0)
                {
                    limiter.IsWaitingListed = false;
                    _waiting.RemoveAt(i);
                }
            }

            ArmTimerLocked(now);
        }

        if (released is null)
        {
            return;
        }

        foreach (var (node, slot) in released)
        {
            RecordQueueLength(-1);
            RecordOutcome(slot, _model?.Find(slot.Index), DropReason.None);
            node.SetResult(AdmissionResult.Admitted);
        }
    }

    private void ArmTimerLocked(long now)
    {
        var due = long.MaxValue;
        foreach (var index in _waiting)
        {
            // Refill first: a bucket last refilled long ago would otherwise look emptier than it is and push the timer out.
            var bucket = _limiters[index]!.Bucket;
            bucket.Refill(now);
            var wait = bucket.TimeUntil(bucket.Deficit);
            if (wait != long.MaxValue)
            {
                due = Math.Min(due, now + Math.Max(1, wait));
            }
        }

        if (due == _timerDue)
        {
            return;
        }

        _timerDue = due;
        if (due == long.MaxValue)
        {
            _timer.Change(Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
            return;
        }

        var ticks = (long)Math.Ceiling((double)(due - now) * TimeSpan.TicksPerSecond / _timeProvider.TimestampFrequency);
        _timer.Change(TimeSpan.FromTicks(Math.Max(1, ticks)), Timeout.InfiniteTimeSpan);
    }

    private WorkflowLimiter GetLimiter(int index, long now)
    {
        var limiter = _limiters[index];
        if (limiter is null)
        {
            var rate = _options.InitialRate;
            limiter = new WorkflowLimiter(new TokenBucket(rate, BurstFor(rate, null), now, _timeProvider.TimestampFrequency), _options.QueueLimit)
            {
                // A new limiter counts as just admitted: no probe before a whole interval has passed.
                LastAdmittedAt = now,
                LastProbeAt = now,
            };
            _limiters[index] = limiter;
        }

        return limiter;
    }

    /// <summary>
    /// Whether a request refused as deadline-infeasible is admitted instead, as the probe that lets a completion correct a
    /// stale estimate (<see cref="AdmissionOptions.InfeasibleProbeInterval"/>): only when the estimate alone makes it
    /// infeasible (its deadline has not passed), and nothing of the workflow was admitted, and no probe sent, for an interval.
    /// </summary>
    private bool IsProbe(DropDecision decision, in AdmissionCandidate candidate, WorkflowLimiter limiter, long now)
    {
        if (decision.Reason != DropReason.DeadlineInfeasible
            || _options.InfeasibleProbeInterval == Timeout.InfiniteTimeSpan
            || candidate.EstimatedCompletionSeconds <= 0
            || candidate.Context.Deadline is not { } deadline
            || candidate.ElapsedSeconds >= deadline.TotalSeconds)
        {
            return false;
        }

        var interval = (long)(_options.InfeasibleProbeInterval.TotalSeconds * _timeProvider.TimestampFrequency);
        return now - limiter.LastAdmittedAt >= interval && now - limiter.LastProbeAt >= interval;
    }

    private double BurstFor(double rate, double? explicitBurst) =>
        explicitBurst ?? (double.IsPositiveInfinity(rate) ? 1 : Math.Max(1, rate * _options.BurstWindow.TotalSeconds));

    private static void RecordOutcome(WorkflowSlot slot, WorkflowModel? model, DropReason reason)
    {
        var workflowTag = new KeyValuePair<string, object?>(CiceroTelemetry.WorkflowTag, slot.Id.Value);
        if (reason == DropReason.None)
        {
            model?.RecordAdmitted();
            if (CiceroInstruments.RequestsAdmitted.Enabled)
            {
                CiceroInstruments.RequestsAdmitted.Add(1, workflowTag);
            }
        }
        else if (CiceroInstruments.RequestsDropped.Enabled)
        {
            CiceroInstruments.RequestsDropped.Add(
                1, workflowTag, new KeyValuePair<string, object?>(CiceroTelemetry.DropReasonTag, CiceroInstruments.ToTag(reason)));
        }
    }

    private static void RecordQueueLength(int delta)
    {
        if (CiceroInstruments.AdmissionQueueLength.Enabled)
        {
            CiceroInstruments.AdmissionQueueLength.Add(delta);
        }
    }

    private sealed class WorkflowLimiter(TokenBucket bucket, int queueLimit)
    {
        public readonly Deque<WaitNode<AdmissionResult, RequestContext>> Queue = new(4);

        public TokenBucket Bucket { get; } = bucket;

        public int QueueLimit { get; set; } = queueLimit;

        public double? ExplicitBurst { get; set; }

        public bool IsWaitingListed { get; set; }

        public long LastAdmittedAt { get; set; }

        public long LastProbeAt { get; set; }
    }
}
