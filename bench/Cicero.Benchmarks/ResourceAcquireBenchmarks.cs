// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Threading.RateLimiting;
using BenchmarkDotNet.Attributes;
using Cicero.Context;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Benchmarks;

/// <summary>
/// Uncontended acquire + release of one permit: <see cref="ResourceSemaphore"/> against <see cref="SemaphoreSlim"/>
/// and the System.Threading.RateLimiting <see cref="ConcurrencyLimiter"/>.
/// </summary>
/// <remarks>
/// Every primitive has one permit and nothing else uses it, so each acquire completes synchronously. The methods check
/// <c>IsCompletedSuccessfully</c> and read the result directly instead of awaiting, so no async state machine is
/// measured; a wait that did not complete synchronously would break the premise, and throws.
/// </remarks>
[MemoryDiagnoser]
public class ResourceAcquireBenchmarks
{
    private readonly SemaphoreSlim _semaphoreSlim = new(1, 1);
    private ConcurrencyLimiter _concurrencyLimiter = null!;
    private ResourceSemaphore _resource = null!;
    private ResourceSemaphore _resourceNoProgress = null!;
    private ResourceSemaphore _resourceCountingClock = null!;
    private RequestContext _context = null!;
    private RequestContext _resolvedContext = null!;

    [GlobalSetup]
    public void Setup()
    {
        var registry = new WorkflowRegistry();
        _concurrencyLimiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions
        {
            PermitLimit = 1,
            QueueLimit = 0,
            QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
        });
        _resource = new ResourceSemaphore(
            new ResourceSemaphoreOptions { Name = "bench-default", Capacity = 1 },
            registry,
            timeProvider: TimeProvider.System);
        _resourceNoProgress = new ResourceSemaphore(
            new ResourceSemaphoreOptions { Name = "bench-no-progress", Capacity = 1, TrackRequestProgress = false },
            registry,
            timeProvider: TimeProvider.System);

        _resourceCountingClock = new ResourceSemaphore(
            new ResourceSemaphoreOptions { Name = "bench-counting-clock", Capacity = 1 },
            registry,
            timeProvider: new CountingTimeProvider());

        // Created once and reused. The first acquire caches the registry slot on the context, so after warm-up both
        // contexts take the cached path; the second one is resolved up front to make that explicit.
        _context = RequestContext.Start("checkout-api", TimeProvider.System);
        _resolvedContext = RequestContext.Start("checkout-api", TimeProvider.System);
        _ = registry.Resolve(_resolvedContext);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _concurrencyLimiter.Dispose();
        _semaphoreSlim.Dispose();
    }

    [Benchmark(Baseline = true, Description = "SemaphoreSlim.WaitAsync + Release")]
    public bool SemaphoreSlimWaitAsync()
    {
        var wait = _semaphoreSlim.WaitAsync();
        if (!wait.IsCompletedSuccessfully)
        {
            throw new InvalidOperationException("The uncontended wait did not complete synchronously.");
        }

        _semaphoreSlim.Release();
        return true;
    }

    /// <summary>
    /// Reference, not a competitor: the two system-clock reads every timed hold needs (one at the grant, one at the
    /// release), so the table shows how much of the resource's time is the clock.
    /// </summary>
    /// <returns>The sum of the two timestamps.</returns>
    [Benchmark(Description = "reference: 2 x TimeProvider.System.GetTimestamp()")]
    public long TwoClockReads() => TimeProvider.System.GetTimestamp() + TimeProvider.System.GetTimestamp();

    [Benchmark(Description = "ConcurrencyLimiter.AcquireAsync(1) + lease.Dispose")]
    public bool ConcurrencyLimiterAcquireAsync()
    {
        var acquire = _concurrencyLimiter.AcquireAsync(1);
        if (!acquire.IsCompletedSuccessfully)
        {
            throw new InvalidOperationException("The uncontended acquire did not complete synchronously.");
        }

        using var lease = acquire.Result;
        return lease.IsAcquired;
    }

    [Benchmark(Description = "ConcurrencyLimiter.AttemptAcquire(1) + lease.Dispose")]
    public bool ConcurrencyLimiterAttemptAcquire()
    {
        using var lease = _concurrencyLimiter.AttemptAcquire(1);
        return lease.IsAcquired;
    }

    [Benchmark(Description = "ResourceSemaphore.AcquireAsync + Dispose (progress tracked)")]
    public bool ResourceSemaphoreAcquire()
    {
        var acquire = _resource.AcquireAsync(_context);
        if (!acquire.IsCompletedSuccessfully)
        {
            throw new InvalidOperationException("The uncontended acquire did not complete synchronously.");
        }

        using var lease = acquire.Result;
        return lease.IsAcquired;
    }

    /// <summary>
    /// Profile row: the default resource on a clock that costs a field increment, so the row is everything acquire +
    /// release does except reading the system clock.
    /// </summary>
    /// <returns>Whether the permit was granted.</returns>
    [Benchmark(Description = "profile: ResourceSemaphore (progress tracked) on a counting clock")]
    public bool ResourceSemaphoreAcquireCountingClock()
    {
        var acquire = _resourceCountingClock.AcquireAsync(_context);
        if (!acquire.IsCompletedSuccessfully)
        {
            throw new InvalidOperationException("The uncontended acquire did not complete synchronously.");
        }

        using var lease = acquire.Result;
        return lease.IsAcquired;
    }

    [Benchmark(Description = "ResourceSemaphore.AcquireAsync + Dispose (resolved context, no progress)")]
    public bool ResourceSemaphoreAcquireNoProgress()
    {
        var acquire = _resourceNoProgress.AcquireAsync(_resolvedContext);
        if (!acquire.IsCompletedSuccessfully)
        {
            throw new InvalidOperationException("The uncontended acquire did not complete synchronously.");
        }

        using var lease = acquire.Result;
        return lease.IsAcquired;
    }

    /// <summary>A clock whose every read advances one tick: as cheap as a clock can be, and monotonic.</summary>
    private sealed class CountingTimeProvider : TimeProvider
    {
        private long _now;

        public override long TimestampFrequency => Stopwatch.Frequency;

        public override long GetTimestamp() => ++_now;
    }
}
