// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
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
/// <para>
/// Invariants, all under one lock: a workflow's queued requests wait in arrival order and are released only when its
/// bucket has a token; a workflow with a non-empty queue is in the waiting list (a cancellation may leave it listed
/// with an empty queue until the next timer pass removes it); the timer is armed for
/// the earliest time a waiting workflow's bucket will hold a token, and disarmed when none waits; a request either
/// completes once (admitted, rejected with its reason, cancelled, or failed by disposal) or waits, never both.
/// </para>
/// <para>
/// The class is split by concern: admission (this file), rates and per-workflow limiters
/// (<c>AdmissionController.Rates.cs</c>), and the waiters' release, cancellation and disposal
/// (<c>AdmissionController.Waiters.cs</c>).
/// </para>
/// </remarks>
public sealed partial class AdmissionController : IWaitNodeOwner<AdmissionResult, RequestContext>, IDisposable
{
    private readonly Lock _lock = new();
    private readonly TimeProvider _timeProvider;
    private readonly long _timestampFrequency;
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
        _timestampFrequency = _timeProvider.TimestampFrequency;
        _limiters = new WorkflowLimiter?[registry.SlotCapacity];
        InteriorShares = new InteriorShareGate(registry, model);
        _timer = _timeProvider.CreateTimer(static state => ((AdmissionController)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    /// <summary>Gets the workflow registry.</summary>
    public WorkflowRegistry Registry { get; }

    /// <summary>Gets the interior hops' counter and their gate at the local fair share (decision 0022).</summary>
    internal InteriorShareGate InteriorShares { get; }

    /// <summary>Admits the request now or rejects it; never waits.</summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known; its demand share shapes the rates announced back to it.</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    public AdmissionResult TryAdmit(RequestContext context, string? caller = null) =>
        AdmitCore(context, caller, queue: false, null, default, out _);

    /// <summary>Like <see cref="TryAdmit(RequestContext, string?)"/>, as of a timestamp of this controller's clock the caller already read.</summary>
    internal AdmissionResult TryAdmit(RequestContext context, string? caller, long now) =>
        AdmitCore(context, caller, queue: false, now, default, out _);

    /// <summary>
    /// Counts a request that was admitted at its entry and is passing through this process, without holding it to σ:
    /// its arrival (per caller) and its admission are recorded as <see cref="TryAdmit(RequestContext, string?)"/> records
    /// them, so the amplification α and the callers' shares of the rates this process announces stay measured, but no
    /// token is taken and nothing is refused. A workflow is throttled where it enters; limits reach the entry as σ′.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    public void Count(RequestContext context, string? caller = null) => InteriorShares.Count(context, caller);

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
                _timestampFrequency,
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

        var interval = (long)(_options.InfeasibleProbeInterval.TotalSeconds * _timestampFrequency);
        return now - limiter.LastAdmittedAt >= interval && now - limiter.LastProbeAt >= interval;
    }
}
