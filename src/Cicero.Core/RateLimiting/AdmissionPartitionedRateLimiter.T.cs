// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;
using Cicero.Admission;
using Cicero.Workflows;

namespace Cicero.RateLimiting;

/// <summary>
/// Cicero admission as a <see cref="PartitionedRateLimiter{TResource}"/>: each resource (an HTTP request, a Polly
/// <c>ResilienceContext</c>, a message) is classified into a workflow, and admitted at that workflow's rate σ.
/// </summary>
/// <typeparam name="TResource">What is being admitted.</typeparam>
/// <remarks>
/// Partitions are the workflow registry's slots, so their number is bounded: ids past the registry's limit share the
/// overflow workflow. Leases are those of <see cref="AdmissionRateLimiter"/>. Thread-safe; the classifier must be too.
/// </remarks>
public sealed class AdmissionPartitionedRateLimiter<TResource> : PartitionedRateLimiter<TResource>
{
    private readonly AdmissionAcquirer _acquirer;
    private readonly Func<TResource, WorkflowId> _classify;
    private int _disposed;

    /// <summary>Creates the limiter.</summary>
    /// <param name="admission">The process's admission controller; not owned.</param>
    /// <param name="classify">The workflow of a resource; the default id means the overflow workflow.</param>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    public AdmissionPartitionedRateLimiter(AdmissionController admission, Func<TResource, WorkflowId> classify)
    {
        ArgumentNullException.ThrowIfNull(classify);
        _acquirer = new AdmissionAcquirer(admission);
        _classify = classify;
    }

    /// <summary>Gets the admission controller.</summary>
    public AdmissionController Admission => _acquirer.Admission;

    /// <summary>Returns a <see cref="RateLimiter"/> over one workflow's partition, sharing this limiter's counters.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The workflow's limiter.</returns>
    public RateLimiter ForWorkflow(WorkflowId workflow) => new AdmissionRateLimiter(_acquirer, Admission.Registry.Resolve(workflow));

    /// <summary>
    /// Returns a <see cref="RateLimiter"/> over an already resolved workflow slot (the overflow slot included), sharing
    /// this limiter's counters: for hosts that key their own partitions by slot, such as ASP.NET Core's
    /// rate-limiting middleware in Cicero.Grpc.
    /// </summary>
    /// <param name="slot">A slot of <see cref="AdmissionController.Registry"/>.</param>
    /// <returns>The slot's limiter.</returns>
    /// <exception cref="ArgumentException">The slot belongs to another registry.</exception>
    public RateLimiter ForSlot(WorkflowSlot slot)
    {
        ArgumentNullException.ThrowIfNull(slot);
        if (!ReferenceEquals(slot.Registry, Admission.Registry))
        {
            throw new ArgumentException($"The slot of workflow '{slot.Id}' belongs to another workflow registry than this limiter's admission controller.", nameof(slot));
        }

        return new AdmissionRateLimiter(_acquirer, slot);
    }

    /// <inheritdoc />
    public override RateLimiterStatistics? GetStatistics(TResource resource)
    {
        ThrowIfDisposed();
        return _acquirer.GetStatistics(Resolve(resource));
    }

    /// <inheritdoc />
    protected override RateLimitLease AttemptAcquireCore(TResource resource, int permitCount)
    {
        ThrowIfDisposed();
        return _acquirer.Attempt(Resolve(resource), permitCount);
    }

    /// <inheritdoc />
    protected override ValueTask<RateLimitLease> AcquireAsyncCore(TResource resource, int permitCount, CancellationToken cancellationToken)
    {
        ThrowIfDisposed();
        return _acquirer.AcquireAsync(Resolve(resource), permitCount, cancellationToken);
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        Interlocked.Exchange(ref _disposed, 1);
        base.Dispose(disposing);
    }

    private WorkflowSlot Resolve(TResource resource) => Admission.Registry.Resolve(_classify(resource));

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
}
