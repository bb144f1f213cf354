// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.RateLimiting;

/// <summary>
/// One workflow's Cicero admission as a <see cref="RateLimiter"/>, for code written against
/// System.Threading.RateLimiting (Polly's rate-limiter strategy, ASP.NET Core's rate-limiting middleware).
/// </summary>
/// <remarks>
/// <para>
/// Each acquisition is one request admitted by the <see cref="AdmissionController"/>: the workflow's token bucket at its
/// rate σ (which rate adaptation keeps moving), its bounded queue for <see cref="RateLimiter.AcquireAsync"/>, and the
/// drop policy. The request is <see cref="CiceroContext.Current"/> when it belongs to this workflow (its deadline then
/// counts); otherwise a request with no deadline.
/// </para>
/// <para>
/// A refused lease carries <see cref="AdmissionMetadataNames.DropReason"/>, <see cref="MetadataName.ReasonPhrase"/>
/// and, when the rate refused it, <see cref="MetadataName.RetryAfter"/>. Admitted leases hold nothing; disposing them
/// is optional. Thread-safe; an admitted <see cref="RateLimiter.AttemptAcquire"/> allocates nothing.
/// </para>
/// </remarks>
public sealed class AdmissionRateLimiter : RateLimiter
{
    private readonly AdmissionAcquirer _acquirer;
    private readonly WorkflowSlot _slot;
    private int _disposed;

    /// <summary>Creates a limiter for one workflow.</summary>
    /// <param name="admission">The process's admission controller; not owned: disposing the limiter leaves it running.</param>
    /// <param name="workflow">The workflow whose requests this limiter admits.</param>
    /// <exception cref="ArgumentNullException"><paramref name="admission"/> is <see langword="null"/>.</exception>
    public AdmissionRateLimiter(AdmissionController admission, WorkflowId workflow)
        : this(new AdmissionAcquirer(admission), admission.Registry.Resolve(workflow))
    {
    }

    internal AdmissionRateLimiter(AdmissionAcquirer acquirer, WorkflowSlot slot)
    {
        _acquirer = acquirer;
        _slot = slot;
    }

    /// <summary>Gets the workflow this limiter admits (the overflow workflow when the registry was full).</summary>
    public WorkflowId Workflow => _slot.Id;

    /// <inheritdoc />
    /// <remarks>Always <see langword="null"/>: the limiter is a view of the shared controller, never idle state to reclaim.</remarks>
    public override TimeSpan? IdleDuration => null;

    /// <inheritdoc />
    public override RateLimiterStatistics? GetStatistics()
    {
        ThrowIfDisposed();
        return _acquirer.GetStatistics(_slot);
    }

    /// <inheritdoc />
    protected override RateLimitLease AttemptAcquireCore(int permitCount)
    {
        ThrowIfDisposed();
        return _acquirer.Attempt(_slot, permitCount);
    }

    /// <inheritdoc />
    protected override ValueTask<RateLimitLease> AcquireAsyncCore(int permitCount, CancellationToken cancellationToken)
    {
        ThrowIfDisposed();
        return _acquirer.AcquireAsync(_slot, permitCount, cancellationToken);
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        Interlocked.Exchange(ref _disposed, 1);
        base.Dispose(disposing);
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
}
