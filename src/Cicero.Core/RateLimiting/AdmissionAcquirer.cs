// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.RateLimiting;

/// <summary>
/// What both of Cicero's rate limiters do: turn a workflow slot into a request, admit it through the
/// <see cref="AdmissionController"/>, and turn the result into a lease.
/// </summary>
/// <remarks>
/// The request is <see cref="CiceroContext.Current"/> when it belongs to the workflow (so its deadline counts), else a
/// context cached per workflow slot with no deadline: the admitted path allocates nothing. The cache is an array over
/// the registry's slots, so it is as bounded as the registry.
/// </remarks>
internal sealed class AdmissionAcquirer
{
    private readonly RequestContext?[] _contexts;
    private long _successful;
    private long _failed;

    public AdmissionAcquirer(AdmissionController admission)
    {
        ArgumentNullException.ThrowIfNull(admission);
        Admission = admission;
        _contexts = new RequestContext?[admission.Registry.SlotCapacity];
    }

    public AdmissionController Admission { get; }

    public RateLimitLease Attempt(WorkflowSlot slot, int permitCount)
    {
        CheckPermitCount(permitCount);
        if (permitCount == 0)
        {
            // Admission takes tokens; it cannot be asked whether one is there without taking it. A workflow with a
            // positive rate may be admitted eventually, which is what a zero-permit probe asks.
            return Admission.GetRate(slot.Id) > 0 ? AdmissionLease.Acquired : Refuse(slot, DropReason.RateLimited);
        }

        var result = Admission.TryAdmit(ContextFor(slot));
        return ToLease(slot, result);
    }

    public ValueTask<RateLimitLease> AcquireAsync(WorkflowSlot slot, int permitCount, CancellationToken cancellationToken)
    {
        CheckPermitCount(permitCount);
        if (permitCount == 0)
        {
            return new ValueTask<RateLimitLease>(Attempt(slot, 0));
        }

        if (ExpectedWaitSeconds(slot) > LongestWait.TotalSeconds)
        {
            // Queueing would keep it longer than a refusal's smallest Retry-After: refuse now (or admit on a token).
            return new ValueTask<RateLimitLease>(Attempt(slot, permitCount));
        }

        var pending = Admission.AdmitAsync(ContextFor(slot), null, cancellationToken);
        return pending.IsCompletedSuccessfully
            ? new ValueTask<RateLimitLease>(ToLease(slot, pending.Result))
            : AwaitAsync(slot, pending);
    }

    /// <summary>
    /// The longest an acquisition waits in the workflow's queue, judged when it arrives: the queue ahead drained at σ,
    /// plus its own token. One second, the smallest <c>Retry-After</c> HTTP can say: a client told to come back later
    /// would wait no longer, and a flood is refused within about a second of exceeding its rate instead of filling the
    /// queue (<see cref="AdmissionOptions.QueueLimit"/> requests, which at a low σ is many seconds).
    /// </summary>
    internal static readonly TimeSpan LongestWait = TimeSpan.FromSeconds(1);

    public RateLimiterStatistics GetStatistics(WorkflowSlot slot) => new()
    {
        // Admission's token count is not exposed: report none rather than a guess.
        CurrentAvailablePermits = 0,
        CurrentQueuedCount = Admission.GetQueueLength(slot.Id),
        TotalSuccessfulLeases = Interlocked.Read(ref _successful),
        TotalFailedLeases = Interlocked.Read(ref _failed),
    };

    private double ExpectedWaitSeconds(WorkflowSlot slot)
    {
        var rate = Admission.GetRate(slot.Id);
        return double.IsPositiveInfinity(rate) ? 0 : (Admission.GetQueueLength(slot.Id) + 1) / rate;
    }

    private static void CheckPermitCount(int permitCount)
    {
        if ((uint)permitCount > 1)
        {
            throw new ArgumentOutOfRangeException(
                nameof(permitCount), permitCount, "Cicero admits one request per acquisition: ask for 1 permit (or 0 to probe).");
        }
    }

    private async ValueTask<RateLimitLease> AwaitAsync(WorkflowSlot slot, ValueTask<AdmissionResult> pending) =>
        ToLease(slot, await pending.ConfigureAwait(false));

    private RequestContext ContextFor(WorkflowSlot slot)
    {
        var ambient = CiceroContext.Current;
        if (ambient is not null && ambient.Workflow == slot.Id)
        {
            return ambient;
        }

        return _contexts[slot.Index] ??= RequestContext.Create(slot.Id, 0, null, default, default, default);
    }

    private AdmissionLease ToLease(WorkflowSlot slot, AdmissionResult result)
    {
        if (result.IsAdmitted)
        {
            Interlocked.Increment(ref _successful);
            return AdmissionLease.Acquired;
        }

        return Refuse(slot, result.Reason);
    }

    private AdmissionLease Refuse(WorkflowSlot slot, DropReason reason)
    {
        Interlocked.Increment(ref _failed);
        return AdmissionLease.Refused(reason, RetryAfter(slot, reason));
    }

    /// <summary>How long until a retry could be admitted: only a rate refusal says; waiting does not help a deadline.</summary>
    private TimeSpan? RetryAfter(WorkflowSlot slot, DropReason reason)
    {
        if (reason != DropReason.RateLimited)
        {
            return null;
        }

        var rate = Admission.GetRate(slot.Id);
        if (!(rate > 0) || double.IsPositiveInfinity(rate))
        {
            return null;
        }

        // The queue ahead drains at σ, then one more token accrues.
        var ahead = Admission.GetQueueLength(slot.Id) + 1;
        return TimeSpan.FromSeconds(Math.Min(ahead / rate, TimeSpan.MaxValue.TotalSeconds / 2));
    }
}
