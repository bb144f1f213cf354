// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;
using BenchmarkDotNet.Attributes;
using Cicero.Admission;
using Cicero.RateLimiting;
using Cicero.Workflows;

namespace Cicero.Benchmarks;

/// <summary>
/// Cicero admission behind the <see cref="RateLimiter"/> API: <see cref="AdmissionRateLimiter"/> and
/// <see cref="AdmissionPartitionedRateLimiter{TResource}"/> <c>AttemptAcquire</c> against
/// <see cref="TokenBucketRateLimiter.AttemptAcquire(int)"/> in the same run; all leases admitted and disposed.
/// </summary>
/// <remarks>
/// Same set-up as <see cref="AdmissionBenchmarks"/>: <see cref="TimeProvider.System"/>, the default drop policy,
/// σ = 1e12/s with a burst of 1e12 so neither side runs dry (no ambient context: the limiter's cached request, no
/// deadline). The partitioned limiter classifies a string resource to a cached <see cref="WorkflowId"/>. Cleanup
/// checks that no lease failed.
/// </remarks>
[MemoryDiagnoser]
public class AdmissionRateLimiterBenchmarks
{
    private const string Workflow = "checkout-api";
    private static readonly WorkflowId WorkflowKey = new(Workflow);

    private TokenBucketRateLimiter _tokenBucket = null!;
    private AdmissionController _admission = null!;
    private AdmissionRateLimiter _limiter = null!;
    private AdmissionPartitionedRateLimiter<string> _partitioned = null!;

    [GlobalSetup]
    public void Setup()
    {
        _tokenBucket = new TokenBucketRateLimiter(new TokenBucketRateLimiterOptions
        {
            TokenLimit = int.MaxValue,
            TokensPerPeriod = int.MaxValue,
            ReplenishmentPeriod = TimeSpan.FromSeconds(1),
            AutoReplenishment = true,
            QueueLimit = 0,
        });
        _admission = new AdmissionController(new WorkflowRegistry(), timeProvider: TimeProvider.System);
        _admission.Configure(Workflow, new RateLimiterProperties(1e12, 1e12, 0));
        _limiter = new AdmissionRateLimiter(_admission, WorkflowKey);
        _partitioned = new AdmissionPartitionedRateLimiter<string>(_admission, static _ => WorkflowKey);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        var failed = (_tokenBucket.GetStatistics()?.TotalFailedLeases ?? 0)
            + (_limiter.GetStatistics()?.TotalFailedLeases ?? 0)
            + (_partitioned.GetStatistics(Workflow)?.TotalFailedLeases ?? 0);
        _tokenBucket.Dispose();
        _limiter.Dispose();
        _partitioned.Dispose();
        _admission.Dispose();
        if (failed != 0)
        {
            throw new InvalidOperationException($"{failed} leases failed; the benchmark is invalid.");
        }
    }

    [Benchmark(Baseline = true, Description = "TokenBucketRateLimiter.AttemptAcquire(1) + Dispose")]
    public bool TokenBucketAttemptAcquire()
    {
        using var lease = _tokenBucket.AttemptAcquire(1);
        return lease.IsAcquired;
    }

    [Benchmark(Description = "AdmissionRateLimiter.AttemptAcquire(1) + Dispose")]
    public bool AdmissionAttemptAcquire()
    {
        using var lease = _limiter.AttemptAcquire(1);
        return lease.IsAcquired;
    }

    [Benchmark(Description = "AdmissionPartitionedRateLimiter.AttemptAcquire(r, 1) + Dispose")]
    public bool PartitionedAttemptAcquire()
    {
        using var lease = _partitioned.AttemptAcquire(Workflow, 1);
        return lease.IsAcquired;
    }
}
