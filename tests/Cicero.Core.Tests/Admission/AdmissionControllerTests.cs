// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Measurement;
using Cicero.Model;
using Cicero.Time;
using Cicero.Workflows;
using static Cicero.Tests.Shared.ValueTaskAssert;

namespace Cicero.Tests.Admission;

public class AdmissionControllerTests
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void TryAdmit_OverloadFor10VirtualSeconds_AdmitsWithin2PercentOfRate()
    {
        const double Rate = 250;
        using var admission = Create();
        admission.Configure("tenant", new RateLimiterProperties(Rate, Burst: 5, QueueLimit: 0));
        var admitted = 0;
        var rejected = 0;

        // Offer 4x the rate: one request every 1 ms for 10 s.
        for (var i = 0; i < 10_000; i++)
        {
            var result = admission.TryAdmit(RequestContext.Start("tenant", _clock));
            if (result.IsAdmitted)
            {
                admitted++;
            }
            else
            {
                Assert.Equal(DropReason.RateLimited, result.Reason);
                rejected++;
            }

            _clock.Advance(TimeSpan.FromMilliseconds(1));
        }

        Assert.InRange(admitted, Rate * 10 * 0.98, Rate * 10 * 1.02);
        Assert.Equal(10_000, admitted + rejected);
    }

    [Fact]
    public async Task AdmitAsync_QueuedRequests_AreReleasedAtTheRate()
    {
        using var admission = Create();
        admission.Configure("tenant", new RateLimiterProperties(10, Burst: 1, QueueLimit: 5));
        var releasedAt = new List<TimeSpan>();

        var first = admission.AdmitAsync(RequestContext.Start("tenant", _clock));
        var queued = Enumerable.Range(0, 5).Select(_ => admission.AdmitAsync(RequestContext.Start("tenant", _clock)).AsTask()).ToArray();
        foreach (var task in queued)
        {
            _ = task.ContinueWith(_ => releasedAt.Add(_clock.Elapsed), TaskContinuationOptions.ExecuteSynchronously);
        }

        Assert.True((await first).IsAdmitted);
        Assert.Equal(5, admission.GetQueueLength("tenant"));
        _clock.Advance(TimeSpan.FromMilliseconds(499));
        Assert.Equal(4, queued.Count(t => t.IsCompleted));
        _clock.Advance(TimeSpan.FromMilliseconds(1));

        var results = await Task.WhenAll(queued);
        Assert.All(results, r => Assert.True(r.IsAdmitted));
        Assert.Equal([100, 200, 300, 400, 500], releasedAt.Select(t => (int)Math.Round(t.TotalMilliseconds)));
        Assert.Equal(0, admission.GetQueueLength("tenant"));
    }

    [Fact]
    public async Task AdmitAsync_QueueFull_RejectsAsRateLimited()
    {
        using var admission = Create();
        admission.Configure("tenant", new RateLimiterProperties(1, Burst: 1, QueueLimit: 1));

        Assert.True((await admission.AdmitAsync(RequestContext.Start("tenant", _clock))).IsAdmitted);
        var queued = admission.AdmitAsync(RequestContext.Start("tenant", _clock)).AsTask();
        var rejected = await admission.AdmitAsync(RequestContext.Start("tenant", _clock));

        Assert.False(queued.IsCompleted);
        Assert.Equal(DropReason.RateLimited, rejected.Reason);
    }

    [Fact]
    public async Task AdmitAsync_Cancelled_LeavesQueue()
    {
        using var admission = Create();
        admission.Configure("tenant", new RateLimiterProperties(1, Burst: 1, QueueLimit: 4));
        _ = await admission.AdmitAsync(RequestContext.Start("tenant", _clock));
        using var cts = new CancellationTokenSource();
        var cancelled = admission.AdmitAsync(RequestContext.Start("tenant", _clock), cancellationToken: cts.Token).AsTask();

        cts.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);
        Assert.Equal(0, admission.GetQueueLength("tenant"));
    }

    [Fact]
    public void TryAdmit_DropRule_AdmitsAtTheBoundary_AndDropsJustPastIt()
    {
        // σ = 4/s, δ = 1 s, elapsed = 0.5 s, L = 0: the tolerable backlog is (1 − 0.5) × 4 = 2 requests.
        using var admission = Create();
        admission.Configure("tenant", new RateLimiterProperties(4, Burst: 1, QueueLimit: 10));
        _clock.Advance(TimeSpan.FromSeconds(10));
        RequestContext Late() => RequestContext.Create(
            "tenant", _clock.GetTimestamp() - TimeSpan.FromSeconds(0.5).Ticks, TimeSpan.FromSeconds(1), default, default, default);

        // Takes the only token: backlog is now 1 missing token.
        Assert.True(admission.TryAdmit(Late()).IsAdmitted);
        // Backlog 0 queued + 1 missing token = 1 ≤ 2: queued.
        var one = admission.AdmitAsync(Late()).AsTask();
        // Backlog 1 + 1 = 2 = the boundary: still admitted to the queue.
        var two = admission.AdmitAsync(Late()).AsTask();
        // Backlog 2 + 1 = 3 > 2: the wait at σ would miss the deadline, so the rate refuses it (and says so).
        var three = admission.AdmitAsync(Late()).AsTask();

        Assert.False(one.IsCompleted);
        Assert.False(two.IsCompleted);
        Assert.True(three.IsCompletedSuccessfully);
        Assert.Equal(DropReason.RateLimited, Completed(three).Reason);
        Assert.Equal(2, admission.GetQueueLength("tenant"));
    }

    [Fact]
    public void TryAdmit_DeadlineAlreadyMissed_DropsEvenWithTokens()
    {
        using var admission = Create();
        _clock.Advance(TimeSpan.FromSeconds(5));
        var context = RequestContext.Create("tenant", 0, TimeSpan.FromSeconds(1), default, default, default);

        Assert.Equal(DropReason.DeadlineInfeasible, admission.TryAdmit(context).Reason);
        Assert.True(admission.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);
    }

    [Fact]
    public void Count_RecordsTheArrivalAndAdmission_WithoutTakingATokenOrRefusing()
    {
        var model = new LocalModel(_registry, _clock);
        using var admission = new AdmissionController(_registry, null, model, _clock);
        admission.Configure("tenant", new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));

        // A hop of a request admitted elsewhere: counted, whatever σ says, and past its deadline too.
        for (var i = 0; i < 3; i++)
        {
            admission.Count(RequestContext.Start("tenant", _clock), "caller-1");
        }

        admission.Count(RequestContext.Create("tenant", 0, TimeSpan.FromMilliseconds(1), default, default, default), "caller-1");

        // The one token is still there for a request that starts here.
        Assert.True(admission.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);
        Assert.Equal(DropReason.RateLimited, admission.TryAdmit(RequestContext.Start("tenant", _clock)).Reason);

        _clock.Advance(TimeSpan.FromMilliseconds(100));
        model.CloseInterval();
        var workflow = model.Get(_registry.Resolve("tenant"));
        Assert.Equal(60, workflow.ArrivalRate, 9);
        Assert.Equal(50, workflow.AdmittedRate, 9);
        Assert.Equal(40, workflow.GetCallerRate("caller-1"), 9);
    }

    [Fact]
    public void TryAdmit_UsesCompletionTimeFromModel()
    {
        var model = new LocalModel(_registry, _clock);
        using var admission = new AdmissionController(_registry, null, model, _clock);
        model.Get(_registry.Resolve("tenant")).RecordCompletion(TimeSpan.FromMilliseconds(800));

        // Elapsed 0 + L 0.8 s ≤ δ 1 s: admitted; δ 0.5 s: infeasible.
        Assert.True(admission.TryAdmit(RequestContext.Start("tenant", _clock, TimeSpan.FromSeconds(1))).IsAdmitted);
        Assert.Equal(DropReason.DeadlineInfeasible, admission.TryAdmit(RequestContext.Start("tenant", _clock, TimeSpan.FromSeconds(0.5))).Reason);
        _clock.Advance(TimeSpan.FromSeconds(1));
        model.CloseInterval();
        Assert.Equal(2, model.Get(_registry.Resolve("tenant")).ArrivalRate);
        Assert.Equal(1, model.Get(_registry.Resolve("tenant")).AdmittedRate);
    }

    [Fact]
    public void TryAdmit_JudgesARequestCarryingItsOwnEstimate_ByItsSize_NotTheWorkflowsAverage()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { SampleEwmaWeight = 1 });
        using var admission = new AdmissionController(_registry, null, model, _clock);
        RequestContext Sized(double serviceSeconds, double deadlineSeconds) =>
            RequestContext.Start("tenant", _clock, TimeSpan.FromSeconds(deadlineSeconds)).WithEstimatedTotal(new ProgressDelta(serviceSeconds, 0));

        // The last completion, a 1 s request, took 2 s: L is 2 s and the time here is 2 per estimated second.
        model.Get(_registry.Resolve("tenant")).RecordCompletion(Sized(1, 10), TimeSpan.FromSeconds(2));

        // A 50 ms request with a 400 ms deadline needs its 50 ms: admitted, though L alone (2 s) would refuse it. The
        // queueing in L is judged where it happens (at its turn here, at the resources), not predicted on arrival.
        Assert.True(admission.TryAdmit(Sized(0.05, 0.4)).IsAdmitted);
        Assert.True(admission.TryAdmit(Sized(0.3, 0.4)).IsAdmitted);
        Assert.Equal(DropReason.DeadlineInfeasible, admission.TryAdmit(Sized(0.5, 0.4)).Reason);
        Assert.Equal(DropReason.DeadlineInfeasible, admission.TryAdmit(RequestContext.Start("tenant", _clock, TimeSpan.FromSeconds(0.4))).Reason);
    }

    [Fact]
    public void TryAdmit_EstimateStaleAfterAStall_AdmitsOneProbePerInterval_AndRecoversOnceItCompletes()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { SampleEwmaWeight = 1 });
        using var admission = new AdmissionController(_registry, null, model, _clock);
        var workflow = model.Get(_registry.Resolve("tenant"));
        RequestContext Request() => RequestContext.Start("tenant", _clock, TimeSpan.FromSeconds(2));

        // A stall: the last completion took 5 s, past every 2 s deadline. Without probes nothing would be admitted again,
        // so nothing would complete and L would stay at 5 s for good.
        workflow.RecordCompletion(TimeSpan.FromSeconds(5));
        var admittedPerSecond = new List<int>();
        for (var second = 0; second < 3; second++)
        {
            var admitted = 0;
            for (var i = 0; i < 10; i++)
            {
                var result = admission.TryAdmit(Request());
                if (result.IsAdmitted)
                {
                    admitted++;
                }
                else
                {
                    Assert.Equal(DropReason.DeadlineInfeasible, result.Reason);
                }

                _clock.Advance(TimeSpan.FromMilliseconds(100));
            }

            admittedPerSecond.Add(admitted);
        }

        // No probe within the first interval (nothing is known to be stale yet), then exactly one per interval.
        Assert.Equal([0, 1, 1], admittedPerSecond);

        // The probe completes quickly: L is corrected and the workflow is admitted again.
        workflow.RecordCompletion(TimeSpan.FromMilliseconds(20));
        for (var i = 0; i < 10; i++)
        {
            Assert.True(admission.TryAdmit(Request()).IsAdmitted);
        }
    }

    [Fact]
    public void TryAdmit_NeverProbesWithAMissedDeadline_OrWithProbingOff()
    {
        var model = new LocalModel(_registry, _clock);
        using var probing = new AdmissionController(_registry, null, model, _clock);
        using var off = new AdmissionController(
            _registry, null, model, _clock, new AdmissionOptions { InfeasibleProbeInterval = Timeout.InfiniteTimeSpan });
        model.Get(_registry.Resolve("tenant")).RecordCompletion(TimeSpan.FromSeconds(5));
        RequestContext Request() => RequestContext.Start("tenant", _clock, TimeSpan.FromSeconds(2));
        var missed = RequestContext.Create("tenant", _clock.GetTimestamp(), TimeSpan.FromSeconds(1), default, default, default);
        Assert.Equal(DropReason.DeadlineInfeasible, probing.TryAdmit(Request()).Reason);
        Assert.Equal(DropReason.DeadlineInfeasible, off.TryAdmit(Request()).Reason);
        _clock.Advance(TimeSpan.FromSeconds(10));

        // A probe is due on both, but a request past its deadline is never one, and probing off sends none.
        Assert.Equal(DropReason.DeadlineInfeasible, probing.TryAdmit(missed).Reason);
        Assert.Equal(DropReason.DeadlineInfeasible, off.TryAdmit(Request()).Reason);
        Assert.True(probing.TryAdmit(Request()).IsAdmitted);
    }

    [Fact]
    public void Options_ProbeInterval_MustBePositiveOrInfinite()
    {
        Assert.Throws<ArgumentOutOfRangeException>(
            () => new AdmissionController(_registry, options: new AdmissionOptions { InfeasibleProbeInterval = TimeSpan.Zero }));
    }

    [Fact]
    public void SetRate_Zero_StopsAdmissionAfterBurst_AndRaisingItResumes()
    {
        using var admission = Create();
        admission.Configure("tenant", new RateLimiterProperties(0, Burst: 2, QueueLimit: 0));

        Assert.True(admission.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);
        Assert.True(admission.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);
        _clock.Advance(TimeSpan.FromSeconds(100));
        Assert.False(admission.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);

        admission.SetRate("tenant", 10);
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        Assert.True(admission.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);
        Assert.Equal(new RateLimiterProperties(10, 2, 0), admission.GetProperties("tenant"));
    }

    [Fact]
    public void Workflows_HaveIndependentBuckets()
    {
        using var admission = Create();
        admission.Configure("a", new RateLimiterProperties(1, Burst: 1, QueueLimit: 0));

        Assert.True(admission.TryAdmit(RequestContext.Start("a", _clock)).IsAdmitted);
        Assert.False(admission.TryAdmit(RequestContext.Start("a", _clock)).IsAdmitted);
        Assert.True(admission.TryAdmit(RequestContext.Start("b", _clock)).IsAdmitted);
        Assert.True(double.IsPositiveInfinity(admission.GetRate("b")));
    }

    [Fact]
    public void Configure_InvalidProperties_Throw()
    {
        using var admission = Create();

        Assert.Throws<ArgumentOutOfRangeException>(() => admission.Configure("a", new RateLimiterProperties(-1, null, 0)));
        Assert.Throws<ArgumentOutOfRangeException>(() => admission.Configure("a", new RateLimiterProperties(double.NaN, null, 0)));
        Assert.Throws<ArgumentOutOfRangeException>(() => admission.Configure("a", new RateLimiterProperties(1, 0.5, 0)));
        Assert.Throws<ArgumentOutOfRangeException>(() => admission.Configure("a", new RateLimiterProperties(1, null, -1)));
    }

    private AdmissionController Create() =>
        new(_registry, null, null, _clock, new AdmissionOptions { RunContinuationsAsynchronously = false });

    [Fact]
    public async Task AdmitAsync_OtherWorkflowsArrivals_DoNotPostponeAQueuedRequest()
    {
        // Regression: re-arming the shared timer from stale buckets pushed A's release out on every B arrival.
        using var admission = Create();
        admission.Configure("a", new RateLimiterProperties(1, Burst: 1, QueueLimit: 4));
        admission.Configure("b", new RateLimiterProperties(0, Burst: 1, QueueLimit: 1000));
        Assert.True(admission.TryAdmit(RequestContext.Start("a", _clock)).IsAdmitted);
        Assert.True(admission.TryAdmit(RequestContext.Start("b", _clock)).IsAdmitted);
        var queued = admission.AdmitAsync(RequestContext.Start("a", _clock)).AsTask();

        for (var i = 0; i < 4; i++)
        {
            _clock.Advance(TimeSpan.FromMilliseconds(400));
            _ = admission.AdmitAsync(RequestContext.Start("b", _clock)).AsTask();
        }

        Assert.True(queued.IsCompletedSuccessfully);
        Assert.True((await queued).IsAdmitted);
    }

    [Fact]
    public async Task Dispose_CompletesQueuedRequests_InsteadOfLeavingThemHanging()
    {
        var admission = Create();
        admission.Configure("tenant", new RateLimiterProperties(1, Burst: 1, QueueLimit: 4));
        _ = admission.TryAdmit(RequestContext.Start("tenant", _clock));
        var queued = admission.AdmitAsync(RequestContext.Start("tenant", _clock)).AsTask();

        admission.Dispose();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => queued);
        Assert.Equal(0, admission.GetQueueLength("tenant"));
    }
}
