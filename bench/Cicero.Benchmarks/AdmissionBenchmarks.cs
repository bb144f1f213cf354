// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;
using BenchmarkDotNet.Attributes;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.Benchmarks;

/// <summary>
/// The admit-now path: <see cref="AdmissionController.TryAdmit"/> at a rate that never runs dry against
/// <see cref="TokenBucketRateLimiter.AttemptAcquire(int)"/> configured the same way.
/// </summary>
/// <remarks>
/// <para>
/// Cicero: one controller per variant on <see cref="TimeProvider.System"/>, the default drop policy
/// (<see cref="DeadlineFeasibilityDropPolicy"/>), a context with a one-hour deadline so the policy does its full
/// evaluation. "Finite" is σ = 1e12/s with an explicit burst of 1e12 tokens; "unlimited" is σ = +∞.
/// </para>
/// <para>
/// Baseline: a <see cref="TokenBucketRateLimiter"/> with TokenLimit = TokensPerPeriod = int.MaxValue,
/// ReplenishmentPeriod = 1 s, AutoReplenishment = true and QueueLimit = 0, so it refills to 2^31 − 1 tokens every
/// second and never runs dry. Its leases are disposed. Cleanup checks that no lease and no admission failed.
/// </para>
/// </remarks>
[MemoryDiagnoser]
public class AdmissionBenchmarks
{
    private const string Workflow = "checkout-api";

    private TokenBucketRateLimiter _tokenBucket = null!;
    private AdmissionController _finite = null!;
    private AdmissionController _unlimited = null!;
    private AdmissionController _finiteWithModel = null!;
    private AdmissionController _unlimitedWithModel = null!;
    private RequestContext _context = null!;
    private RequestContext _contextForModel = null!;
    private long _now;

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
            QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
        });

        var registry = new WorkflowRegistry();
        _finite = new AdmissionController(registry, timeProvider: TimeProvider.System);
        _unlimited = new AdmissionController(registry, timeProvider: TimeProvider.System);

        // The model must share the controller's registry, and a context caches the slot of one registry only.
        var modelRegistry = new WorkflowRegistry();
        var model = new LocalModel(modelRegistry, TimeProvider.System);
        _finiteWithModel = new AdmissionController(modelRegistry, model: model, timeProvider: TimeProvider.System);
        _unlimitedWithModel = new AdmissionController(modelRegistry, model: model, timeProvider: TimeProvider.System);

        _finite.Configure(Workflow, new RateLimiterProperties(1e12, 1e12, 0));
        _finiteWithModel.Configure(Workflow, new RateLimiterProperties(1e12, 1e12, 0));
        _unlimited.SetRate(Workflow, double.PositiveInfinity);
        _unlimitedWithModel.SetRate(Workflow, double.PositiveInfinity);

        _context = RequestContext.Start(Workflow, TimeProvider.System, TimeSpan.FromHours(1));
        _contextForModel = RequestContext.Start(Workflow, TimeProvider.System, TimeSpan.FromHours(1));
        CheckAdmitted();
        _now = TimeProvider.System.GetTimestamp();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        CheckAdmitted();
        var failed = _tokenBucket.GetStatistics()?.TotalFailedLeases ?? 0;
        _tokenBucket.Dispose();
        _finite.Dispose();
        _unlimited.Dispose();
        _finiteWithModel.Dispose();
        _unlimitedWithModel.Dispose();
        if (failed != 0)
        {
            throw new InvalidOperationException($"The token bucket ran dry {failed} times; the baseline is invalid.");
        }
    }

    [Benchmark(Baseline = true, Description = "TokenBucketRateLimiter.AttemptAcquire(1) + Dispose")]
    public bool TokenBucketAttemptAcquire()
    {
        using var lease = _tokenBucket.AttemptAcquire(1);
        return lease.IsAcquired;
    }

    /// <summary>
    /// Reference, not a competitor: the one system-clock read per request that decision 0004 makes admission take.
    /// </summary>
    /// <returns>The timestamp.</returns>
    [Benchmark(Description = "reference: TimeProvider.System.GetTimestamp()")]
    public long OneClockRead() => TimeProvider.System.GetTimestamp();

    [Benchmark(Description = "TryAdmit, rate 1e12/s, no model")]
    public AdmissionResult TryAdmitFinite() => _finite.TryAdmit(_context);

    /// <summary>
    /// Admission as the server interceptor calls it: with the timestamp it read once for the whole call (decoding, the
    /// deadline check and admission share it), so the row is admission's own work without the clock read. The
    /// timestamp advances by one tick a call, so the bucket refills every time as it does on a live clock.
    /// </summary>
    /// <returns>The result.</returns>
    [Benchmark(Description = "TryAdmit(now given), rate 1e12/s, no model")]
    public AdmissionResult TryAdmitFiniteGivenNow() => _finite.TryAdmit(_context, null, ++_now);

    [Benchmark(Description = "TryAdmit, rate +inf, no model")]
    public AdmissionResult TryAdmitUnlimited() => _unlimited.TryAdmit(_context);

    [Benchmark(Description = "TryAdmit, rate 1e12/s, LocalModel")]
    public AdmissionResult TryAdmitFiniteWithModel() => _finiteWithModel.TryAdmit(_contextForModel);

    [Benchmark(Description = "TryAdmit, rate +inf, LocalModel")]
    public AdmissionResult TryAdmitUnlimitedWithModel() => _unlimitedWithModel.TryAdmit(_contextForModel);

    private void CheckAdmitted()
    {
        foreach (var (controller, context) in new[]
        {
            (_finite, _context), (_unlimited, _context), (_finiteWithModel, _contextForModel), (_unlimitedWithModel, _contextForModel),
        })
        {
            var result = controller.TryAdmit(context);
            if (!result.IsAdmitted)
            {
                throw new InvalidOperationException($"TryAdmit rejected the request ({result.Reason}); the benchmark is invalid.");
            }
        }
    }
}
