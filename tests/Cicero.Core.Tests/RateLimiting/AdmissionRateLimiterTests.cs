// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;
using Cicero.Admission;
using Cicero.Context;
using Cicero.RateLimiting;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Tests.RateLimiting;

public class AdmissionRateLimiterTests
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new(maxWorkflows: 4);

    [Fact]
    public void AttemptAcquire_OverTheBurst_RefusesWithReasonAndRetryAfter()
    {
        using var admission = Create(queueLimit: 0);
        admission.Configure("tenant", new RateLimiterProperties(10, Burst: 3, QueueLimit: 0));
        using var limiter = new AdmissionRateLimiter(admission, new WorkflowId("tenant"));

        var leases = Enumerable.Range(0, 5).Select(_ => limiter.AttemptAcquire()).ToList();

        Assert.Equal([true, true, true, false, false], leases.Select(l => l.IsAcquired));
        var refused = leases[3];
        Assert.True(refused.TryGetMetadata(AdmissionMetadataNames.DropReason, out var reason));
        Assert.Equal(DropReason.RateLimited, reason);
        Assert.True(refused.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter));
        Assert.Equal(TimeSpan.FromMilliseconds(100), retryAfter);
        Assert.True(refused.TryGetMetadata(MetadataName.ReasonPhrase, out var phrase));
        Assert.Contains("admission rate", phrase, StringComparison.Ordinal);
        Assert.Equal(["REASON_PHRASE", "CICERO_DROP_REASON", "RETRY_AFTER"], refused.MetadataNames);
        Assert.Empty(leases[0].MetadataNames);

        // One token accrues in 1/σ: exactly the retry-after the lease announced.
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        Assert.True(limiter.AttemptAcquire().IsAcquired);
        Assert.False(limiter.AttemptAcquire().IsAcquired);

        var statistics = limiter.GetStatistics()!;
        Assert.Equal(4, statistics.TotalSuccessfulLeases);
        Assert.Equal(3, statistics.TotalFailedLeases);
    }

    [Fact]
    public async Task AcquireAsync_QueuesInTheWorkflowsBoundedQueue_AndIsReleasedAtTheRate()
    {
        using var admission = Create(queueLimit: 2);
        admission.Configure("tenant", new RateLimiterProperties(10, Burst: 1, QueueLimit: 2));
        using var limiter = new AdmissionRateLimiter(admission, new WorkflowId("tenant"));

        Assert.True((await limiter.AcquireAsync()).IsAcquired);
        var second = limiter.AcquireAsync().AsTask();
        var third = limiter.AcquireAsync().AsTask();
        var overflow = await limiter.AcquireAsync();

        Assert.False(overflow.IsAcquired);
        Assert.True(overflow.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter));
        Assert.Equal(TimeSpan.FromMilliseconds(300), retryAfter);
        Assert.Equal(2, limiter.GetStatistics()!.CurrentQueuedCount);
        Assert.False(second.IsCompleted);

        _clock.Advance(TimeSpan.FromMilliseconds(100));
        Assert.True((await second).IsAcquired);
        Assert.False(third.IsCompleted);
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        Assert.True((await third).IsAcquired);
    }

    [Fact]
    public async Task AcquireAsync_QueuesAboutOneSecondAtTheRate_AndRefusesTheRestAtOnce()
    {
        using var admission = Create(queueLimit: 128);
        admission.Configure("tenant", new RateLimiterProperties(5, Burst: 1, QueueLimit: 128));
        using var limiter = new AdmissionRateLimiter(admission, new WorkflowId("tenant"));

        var acquisitions = Enumerable.Range(0, 40).Select(_ => limiter.AcquireAsync().AsTask()).ToList();

        // One token, five waiting (the fifth's wait is (4 + 1) / σ = 1 s), 34 refused without any time passing.
        Assert.Equal(34, acquisitions.Count(a => a.IsCompleted && !a.Result.IsAcquired));
        Assert.Equal(1, acquisitions.Count(a => a.IsCompleted && a.Result.IsAcquired));
        Assert.Equal(5, limiter.GetStatistics()!.CurrentQueuedCount);
        _clock.Advance(TimeSpan.FromSeconds(1));
        Assert.All(acquisitions, a => Assert.True(a.IsCompleted));
        Assert.Equal(6, (await Task.WhenAll(acquisitions)).Count(l => l.IsAcquired));

        // A rate of zero never admits: refused at once rather than queued for ever.
        admission.Configure("tenant", new RateLimiterProperties(0, Burst: 1, QueueLimit: 128));
        Assert.False((await limiter.AcquireAsync()).IsAcquired);
    }

    [Fact]
    public async Task AcquireAsync_Cancelled_ThrowsAndLeavesTheQueue()
    {
        using var admission = Create(queueLimit: 4);
        admission.Configure("tenant", new RateLimiterProperties(1, Burst: 1, QueueLimit: 4));
        using var limiter = new AdmissionRateLimiter(admission, new WorkflowId("tenant"));
        Assert.True(limiter.AttemptAcquire().IsAcquired);
        using var cts = new CancellationTokenSource();

        var waiting = limiter.AcquireAsync(1, cts.Token).AsTask();
        cts.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting);
        Assert.Equal(0, limiter.GetStatistics()!.CurrentQueuedCount);
    }

    [Fact]
    public void AttemptAcquire_AmbientContextOfTheWorkflow_CountsItsDeadline()
    {
        using var admission = Create(queueLimit: 0);
        admission.Configure("tenant", new RateLimiterProperties(10, Burst: 1, QueueLimit: 0));
        using var limiter = new AdmissionRateLimiter(admission, new WorkflowId("tenant"));
        var started = RequestContext.Start("tenant", _clock, TimeSpan.FromMilliseconds(50));
        _clock.Advance(TimeSpan.FromMilliseconds(60));

        using (CiceroContext.Use(started))
        {
            var lease = limiter.AttemptAcquire();
            Assert.False(lease.IsAcquired);
            Assert.True(lease.TryGetMetadata(AdmissionMetadataNames.DropReason, out var reason));
            Assert.Equal(DropReason.DeadlineInfeasible, reason);
            Assert.False(lease.TryGetMetadata(MetadataName.RetryAfter, out _));
        }

        // Outside the request the limiter admits on the rate alone.
        Assert.True(limiter.AttemptAcquire().IsAcquired);
    }

    [Fact]
    public void AttemptAcquire_PermitCounts_OneAdmitsZeroProbesMoreThrows()
    {
        using var admission = Create(queueLimit: 0);
        admission.Configure("stopped", new RateLimiterProperties(0, Burst: null, QueueLimit: 0));
        using var open = new AdmissionRateLimiter(admission, new WorkflowId("open"));
        using var stopped = new AdmissionRateLimiter(admission, new WorkflowId("stopped"));

        Assert.True(open.AttemptAcquire(0).IsAcquired);
        Assert.False(stopped.AttemptAcquire(0).IsAcquired);
        Assert.Throws<ArgumentOutOfRangeException>(() => open.AttemptAcquire(2));
        Assert.Throws<ArgumentOutOfRangeException>(() => open.AttemptAcquire(-1));
    }

    [Fact]
    public void Dispose_LeavesTheControllerRunning_AndRefusesFurtherUse()
    {
        using var admission = Create(queueLimit: 0);
        var limiter = new AdmissionRateLimiter(admission, new WorkflowId("tenant"));
        limiter.Dispose();

        Assert.Throws<ObjectDisposedException>(() => limiter.AttemptAcquire());
        Assert.True(admission.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);
    }

    [Fact]
    public void Partitioned_ClassifiesResources_AndShedsOnlyTheFloodingWorkflow()
    {
        using var admission = Create(queueLimit: 0);
        foreach (var tenant in new[] { "flood", "steady" })
        {
            admission.Configure(tenant, new RateLimiterProperties(20, Burst: 2, QueueLimit: 0));
        }

        using var limiter = new AdmissionPartitionedRateLimiter<string>(admission, r => new WorkflowId(r));
        var admitted = new Dictionary<string, int> { ["flood"] = 0, ["steady"] = 0 };

        // 1 s of virtual time: the flood offers 1000 requests/s, the steady tenant 10/s, both against σ = 20/s.
        for (var ms = 0; ms < 1000; ms++)
        {
            admitted["flood"] += limiter.AttemptAcquire("flood").IsAcquired ? 1 : 0;
            if (ms % 100 == 0)
            {
                admitted["steady"] += limiter.AttemptAcquire("steady").IsAcquired ? 1 : 0;
            }

            _clock.Advance(TimeSpan.FromMilliseconds(1));
        }

        Assert.Equal(10, admitted["steady"]);
        Assert.InRange(admitted["flood"], 20, 22);
        Assert.Equal(admitted["flood"] + 10, limiter.GetStatistics("steady")!.TotalSuccessfulLeases);
    }

    [Fact]
    public void Partitioned_UnboundedIds_FoldIntoTheOverflowWorkflow()
    {
        using var admission = Create(queueLimit: 0);
        using var limiter = new AdmissionPartitionedRateLimiter<int>(admission, i => new WorkflowId($"tenant-{i}"));
        var random = new Random(5);

        for (var i = 0; i < 200; i++)
        {
            Assert.True(limiter.AttemptAcquire(random.Next()).IsAcquired);
        }

        Assert.Equal(_registry.SlotCapacity, _registry.Count);
        Assert.True(_registry.OverflowCount > 0);
        Assert.Equal(WorkflowRegistry.OverflowWorkflowName, ((AdmissionRateLimiter)limiter.ForWorkflow(new WorkflowId("never-seen"))).Workflow.Value);
    }

    private AdmissionController Create(int queueLimit) =>
        new(_registry, timeProvider: _clock, options: new AdmissionOptions { QueueLimit = queueLimit, RunContinuationsAsynchronously = false });
}
