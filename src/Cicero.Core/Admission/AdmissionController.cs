// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Internal;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.Admission;

/// <summary>
/// Per-workflow admission: a token bucket at the workflow's rate σ with a bounded queue, and an <see cref="IDropPolicy"/>
/// consulted as each request arrives and again when a queued request's turn comes. Every rejection carries a <see cref="DropReason"/>.
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
/// Split by responsibility: the admission decision (this file), rates and per-workflow limiters
/// (<c>AdmissionController.Rates.cs</c>, state in <see cref="WorkflowLimiter"/>), the waiters' release, cancellation and
/// disposal (<see cref="AdmissionWaiters"/>), and what admission reports (<see cref="AdmissionTelemetry"/>).
/// </para>
/// </remarks>
public sealed partial class AdmissionController : IDisposable
{
    private readonly Lock _lock = new();
    private readonly TimeProvider _timeProvider;
    private readonly long _timestampFrequency;
    private readonly AdmissionOptions _options;
    private readonly IDropPolicy _dropPolicy;
    private readonly LocalModel? _model;
    private readonly WorkflowLimiter?[] _limiters;
    private readonly AdmissionWaiters _waiters;

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
        _waiters = new AdmissionWaiters(_lock, _timeProvider, registry, model, _limiters, _options, _dropPolicy);
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

    /// <summary>
    /// Admits the request as of <paramref name="now"/> or rejects it; never waits. A host that reads its clock once per
    /// request (to decode the context, admit, and stamp the arrival; decision 0004) passes that reading.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <param name="now">A timestamp of this controller's clock (<see cref="TimeProvider.GetTimestamp"/>).</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    public AdmissionResult TryAdmit(RequestContext context, string? caller, long now) =>
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

    /// <summary>Admits the request as of <paramref name="now"/>, waiting in its workflow's bounded queue if the drop policy allows.</summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <param name="now">A timestamp of this controller's clock (<see cref="TimeProvider.GetTimestamp"/>), or <see langword="null"/> to read it.</param>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    /// <exception cref="OperationCanceledException">The wait was cancelled.</exception>
    public ValueTask<AdmissionResult> AdmitAsync(RequestContext context, string? caller, long? now, CancellationToken cancellationToken)
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

    /// <summary>
    /// Admits one hop of a request under Cicero's admission semantics (docs/decisions/0022), the one code path of
    /// Cicero.Grpc's server interceptor and of the emulator's simulator: a request is admitted against σ (and judged by
    /// the drop policy) where it enters; an interior hop of a request admitted upstream is handled as
    /// <paramref name="interior"/> says (<see cref="DefaultInteriorAdmission"/> by default).
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="caller">The calling process, if known.</param>
    /// <param name="isEntry">Whether the request enters the system here (no context came with it).</param>
    /// <param name="interior">What an interior hop gets: counted, refused above its local fair share, or admitted.</param>
    /// <param name="queue">Whether a request over the rate may wait in the workflow's bounded queue; when <see langword="false"/> the result is always complete.</param>
    /// <param name="now">A timestamp of this controller's clock, or <see langword="null"/> to read it.</param>
    /// <param name="cancellationToken">Cancels a wait.</param>
    /// <returns>Admitted, or the reason for the rejection.</returns>
    public ValueTask<AdmissionResult> AdmitHopAsync(
        RequestContext context,
        string? caller,
        bool isEntry,
        InteriorAdmission interior,
        bool queue,
        long? now,
        CancellationToken cancellationToken)
    {
        if (!isEntry && interior == InteriorAdmission.Count)
        {
            return new ValueTask<AdmissionResult>(InteriorShares.Count(context, caller));
        }

        // Counted, unless it sends more than its fair share to a local bottleneck now (then σ here is that share).
        if (!isEntry && interior == InteriorAdmission.LocalFairShare && InteriorShares.TryCountUnarmed(context, caller))
        {
            return new ValueTask<AdmissionResult>(AdmissionResult.Admitted);
        }

        return queue
            ? AdmitAsync(context, caller, now, cancellationToken)
            : new ValueTask<AdmissionResult>(now is { } at ? TryAdmit(context, caller, at) : TryAdmit(context, caller));
    }

    /// <summary>Stops the controller: queued requests complete with <see cref="ObjectDisposedException"/> rather than hang.</summary>
    public void Dispose() => _waiters.Dispose();

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
                waiter = _waiters.EnqueueLocked(limiter, slot.Index, context, at, cancellationToken);
                reason = DropReason.None;
            }
        }

        if (waiter is not null)
        {
            AdmissionTelemetry.RecordQueueLength(1);
            return default;
        }

        AdmissionTelemetry.RecordOutcome(slot, workflowModel, reason);
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
