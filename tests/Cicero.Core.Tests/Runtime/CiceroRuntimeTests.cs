// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Tests.Runtime;

/// <summary>The policy developers' API of dissertation Table 5.1 (docs/table-5-1.md), end to end in one process.</summary>
public class CiceroRuntimeTests
{
    private readonly VirtualTimeProvider _clock = new();

    [Fact]
    public void RateLimiterProperties_CreateGetSet()
    {
        using var runtime = new CiceroRuntime(null, _clock);

        runtime.Admission.Configure("w", new RateLimiterProperties(50, 5, 10));
        Assert.Equal(new RateLimiterProperties(50, 5, 10), runtime.Admission.GetProperties("w"));

        runtime.Admission.Configure("w", new RateLimiterProperties(20, null, 3));
        var properties = runtime.Admission.GetProperties("w");
        Assert.Equal(20, properties.Rate);
        Assert.Equal(2, properties.Burst);
        Assert.Equal(3, properties.QueueLimit);
    }

    [Fact]
    public async Task ResourceUtilization_SubtaskCost_AndArrivalRate_FollowTheWork()
    {
        var options = new CiceroOptions();
        options.Model.EwmaWeight = 1;
        options.Model.SampleEwmaWeight = 1;
        using var runtime = new CiceroRuntime(options, _clock);
        var disk = runtime.AddResource(new() { Name = "disk", Capacity = 2, MaxQueueLength = 8 });

        for (var i = 0; i < 4; i++)
        {
            var context = runtime.StartRequest("w");
            Assert.True(runtime.Admission.TryAdmit(context).IsAdmitted);
            using var lease = await disk.AcquireAsync(context, subtaskType: 7);
            _clock.Advance(TimeSpan.FromMilliseconds(25));
        }

        runtime.RateAdaptation.Step(_clock.GetTimestamp());

        // One permit busy for the whole 100 ms interval out of 2: utilization 0.5.
        var workflow = runtime.Registry.Resolve("w");
        Assert.Equal(0.5, runtime.GetResource("disk").GetUtilization(workflow), 9);
        Assert.Equal(TimeSpan.FromMilliseconds(25), runtime.GetResource("disk").GetServiceTime(workflow, 7));
        Assert.Equal(40, runtime.Model.Get(workflow).ArrivalRate, 9);
        Assert.Throws<KeyNotFoundException>(() => runtime.GetResource("cpu"));
    }

    [Fact]
    public void Resource_ReconfiguredByName_KeepsItsIdentity()
    {
        using var runtime = new CiceroRuntime(null, _clock);

        var first = runtime.AddResource(new() { Name = "pool", Capacity = 1, MaxQueueLength = 1 });
        runtime.GetResource("pool").Configure(capacity: 4, maxQueueLength: 16);

        Assert.Same(first, runtime.GetResource("pool"));
        Assert.Equal(4, first.Capacity);
        Assert.Equal(16, first.MaxQueueLength);
        Assert.Throws<ArgumentException>(() => runtime.AddResource(new() { Name = "pool" }));
    }

    [Fact]
    public void CompleteRequest_AtEntry_FeedsEstimatesStampedOnLaterRequests()
    {
        var options = new CiceroOptions();
        options.Model.SampleEwmaWeight = 1;
        using var runtime = new CiceroRuntime(options, _clock);
        var first = runtime.StartRequest("w");
        Assert.Equal(ProgressDelta.Zero, first.EstimatedTotal);
        var admittedAt = _clock.GetTimestamp();
        first.Progress.AddLocalWork(0.030, 0.5);
        _clock.Advance(TimeSpan.FromMilliseconds(80));

        runtime.CompleteRequest(first, admittedAt, isEntryPoint: true);
        var second = runtime.StartRequest("w");

        Assert.Equal(new ProgressDelta(0.030, 0.5), second.EstimatedTotal);
        Assert.Equal(0.030, second.RemainingServiceTime, 9);
        Assert.Equal(0.080, runtime.Model.Get(new WorkflowId("w")).CompletionSeconds, 9);
    }

    [Fact]
    public void LargeCallsOfOneMethod_DoNotMakeShortCallsOfAnotherMethodOfTheWorkflowInfeasible()
    {
        using var runtime = new CiceroRuntime(null, _clock);
        RequestContext Start(string operation, int deadlineMs)
        {
            var request = runtime.StartRequest("tenant", TimeSpan.FromMilliseconds(deadlineMs));
            request.Operation = operation;
            return request;
        }

        void Serve(RequestContext request, int ms)
        {
            Assert.True(runtime.Admission.TryAdmit(request).IsAdmitted);
            var admittedAt = _clock.GetTimestamp();
            _clock.Advance(TimeSpan.FromMilliseconds(ms));
            runtime.CompleteRequest(request, admittedAt, isEntryPoint: true);
        }

        // A few large uploads of the tenant took 200 ms each.
        for (var i = 0; i < 3; i++)
        {
            Serve(Start("/store.v1.Blobs/Upload", 1000), 200);
        }

        // Its reads, another method, with 10 ms deadlines: the first has no estimate of its own yet and is admitted,
        // and once it took 2 ms, every read is judged on that.
        Serve(Start("/store.v1.Blobs/Get", 10), 2);
        Assert.All(Enumerable.Range(0, 40), _ => Assert.True(runtime.Admission.TryAdmit(Start("/store.v1.Blobs/Get", 10)).IsAdmitted));

        // The estimate still refuses what cannot make it: an upload with 10 ms, and a request naming no operation,
        // which is judged on the workflow's completion time as before.
        Assert.Equal(DropReason.DeadlineInfeasible, runtime.Admission.TryAdmit(Start("/store.v1.Blobs/Upload", 10)).Reason);
        Assert.Equal(DropReason.DeadlineInfeasible, runtime.Admission.TryAdmit(runtime.StartRequest("tenant", TimeSpan.FromMilliseconds(10))).Reason);
    }

    [Fact]
    public void RequestMetadata_IsAmbient_AndADropTellsWhy()
    {
        using var runtime = new CiceroRuntime(null, _clock);
        var context = runtime.StartRequest("w", TimeSpan.FromSeconds(1));

        CiceroContext.Current = context;
        try
        {
            Assert.Same(context, CiceroContext.Current);
            var error = new RequestDroppedException(DropReason.DeadlineInfeasible, "ps-3");
            Assert.Equal(DropReason.DeadlineInfeasible, error.Reason);
            Assert.Contains("ps-3", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            CiceroContext.Current = null;
        }
    }

    [Fact]
    public async Task CiceroContext_Use_FlowsIntoChildTasks_AndRestores()
    {
        var outer = RequestContext.Start("outer", _clock);
        var inner = RequestContext.Start("inner", _clock);

        using (CiceroContext.Use(outer))
        {
            var seen = await Task.Run(() => CiceroContext.Current);
            Assert.Same(outer, seen);
            using (CiceroContext.Use(inner))
            {
                Assert.Same(inner, CiceroContext.Current);
            }

            Assert.Same(outer, CiceroContext.Current);
        }

        Assert.Null(CiceroContext.Current);
    }

    [Fact]
    public void GetRemoteRate_ReturnsLastAnswer()
    {
        using var runtime = new CiceroRuntime(null, _clock);
        var instance = new DownstreamInstance("ps", "ps-1");
        runtime.RateAdaptation.SetDownstreamInstances("ps", ["ps-1"]);

        Assert.Null(runtime.RateAdaptation.GetRemoteRate(instance, "w"));
        runtime.RateAdaptation.RecordAnswer(instance, new DownstreamRateAnswer([new WorkflowRate("w", 42)]), _clock.GetTimestamp());

        Assert.Equal(42, runtime.RateAdaptation.GetRemoteRate(instance, "w"));
    }

    [Fact]
    public void Options_InvalidQuantile_FailsAtConstruction()
    {
        var options = new CiceroOptions();
        options.RateAdaptation.Quantile = 1.2;

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => new CiceroRuntime(options, _clock));
        Assert.Contains("quantile knob", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RecordEntryOutcome_CountsPerInterval_AndIgnoresFailuresItsOwnLimiterCaused()
    {
        using var runtime = new CiceroRuntime(null, _clock);
        var interval = new CiceroOptions().RateAdaptation.Interval;
        var deadline = TimeSpan.FromSeconds(1);
        var late = runtime.StartRequest("w", deadline);
        var unbounded = runtime.StartRequest("w");
        _clock.Advance(TimeSpan.FromMilliseconds(600));
        var fresh = runtime.StartRequest("w", deadline);
        var now = _clock.GetTimestamp();

        // Admitted at once: its outcome, good or bad, is evidence of what the system below serves.
        runtime.RecordEntryOutcome(fresh, now, succeeded: true);
        runtime.RecordEntryOutcome(fresh, now, succeeded: false);
        runtime.RecordEntryOutcome(fresh, now, succeeded: false);

        // Admitted after 600 ms of its 1 s in this process's own limiter: its failure says nothing of the system below.
        runtime.RecordEntryOutcome(late, now, succeeded: false);

        // A success counts however late it was admitted; so does a failure of a request without a deadline.
        runtime.RecordEntryOutcome(late, now, succeeded: true);
        runtime.RecordEntryOutcome(unbounded, now, succeeded: false);

        var model = runtime.Model.Get(runtime.Registry.Resolve(fresh));
        Step(runtime, interval);
        Assert.Equal(2, model.LastIntervalSucceeded);
        Assert.Equal(3, model.LastIntervalFailed);

        // The counts are per interval: the next one starts from nothing.
        Step(runtime, interval);
        Assert.Equal(0, model.LastIntervalSucceeded);
        Assert.Equal(0, model.LastIntervalFailed);
    }

    [Fact]
    public void RecordEntryOutcome_ReachesThePolicyAsTheIntervalsCounts()
    {
        var policy = new Cicero.Tests.RateAdaptation.InputsRecordingPolicy();
        using var runtime = new CiceroRuntimeBuilder { TimeProvider = _clock, RateLimitPolicy = _ => policy }.Build();
        var request = runtime.StartRequest("w");
        for (var i = 0; i < 3; i++)
        {
            runtime.RecordEntryOutcome(request, _clock.GetTimestamp(), succeeded: i > 0);
        }

        Step(runtime, runtime.Options.RateAdaptation.Interval);

        var seen = Assert.Single(policy.Seen, w => w.Workflow.Id == "w");
        Assert.Equal(2, seen.Succeeded);
        Assert.Equal(1, seen.Failed);
    }

    private void Step(CiceroRuntime runtime, TimeSpan interval)
    {
        _clock.Advance(interval);
        runtime.RateAdaptation.Step(_clock.GetTimestamp());
    }
}
