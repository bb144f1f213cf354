// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Measurement;
using Cicero.Model;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Tests.Model;

public class WorkflowModelTests
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void CloseInterval_AmplificationAndSpread_AreCallsPerAdmittedRequestAndShares()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { EwmaWeight = 1 });
        var workflow = model.Get(new WorkflowId("w"));
        for (var i = 0; i < 10; i++)
        {
            workflow.RecordArrival();
            workflow.RecordAdmitted();
            workflow.RecordDownstreamCall("bs", "bs-1");
            workflow.RecordDownstreamCall("bs", "bs-1");
            workflow.RecordDownstreamCall("bs", "bs-2");
            workflow.RecordDownstreamCall("auth", "auth-1");
        }

        _clock.Advance(TimeSpan.FromMilliseconds(100));
        model.CloseInterval();

        Assert.True(workflow.TryGetAmplification("bs", out var bs));
        Assert.Equal(3, bs, 9);
        Assert.True(workflow.TryGetAmplification("auth", out var auth));
        Assert.Equal(1, auth, 9);
        Assert.False(workflow.TryGetAmplification("ps", out _));
        Assert.Equal(2.0 / 3, workflow.GetInstanceFraction("bs", "bs-1"), 9);
        Assert.Equal(1.0 / 3, workflow.GetInstanceFraction("bs", "bs-2"), 9);
        Assert.Equal(0, workflow.GetInstanceFraction("bs", "bs-3"));
        Assert.Equal(100, workflow.ArrivalRate, 9);
    }

    [Fact]
    public void CloseInterval_IdleInterval_KeepsAmplification_AndDecaysRates()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { EwmaWeight = 0.5 });
        var workflow = model.Get(new WorkflowId("w"));
        workflow.RecordArrival("caller");
        workflow.RecordAdmitted();
        workflow.RecordDownstreamCall("bs", "bs-1");
        workflow.RecordDownstreamCall("bs", "bs-1");
        _clock.Advance(TimeSpan.FromSeconds(1));
        model.CloseInterval();

        _clock.Advance(TimeSpan.FromSeconds(1));
        model.CloseInterval();

        Assert.True(workflow.TryGetAmplification("bs", out var alpha));
        Assert.Equal(2, alpha, 9);
        Assert.Equal(0.5, workflow.ArrivalRate, 9);
        Assert.Equal(0.5, workflow.GetCallerRate("caller"), 9);
    }

    [Fact]
    public void RecordArrival_CallersBeyondBound_ShareOneEntry()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { EwmaWeight = 1, MaxCallersPerWorkflow = 2 });
        var workflow = model.Get(new WorkflowId("w"));

        for (var i = 0; i < 100; i++)
        {
            workflow.RecordArrival($"caller-{i}");
        }

        _clock.Advance(TimeSpan.FromSeconds(1));
        model.CloseInterval();

        // Two named callers are tracked; the other 98 share one entry.
        Assert.Equal(1, workflow.GetCallerRate("caller-0"), 9);
        Assert.Equal(1, workflow.GetCallerRate("caller-1"), 9);
        Assert.Equal(98, workflow.GetCallerRate(WorkflowModel.OtherCallers), 9);
        Assert.Equal(98, workflow.GetCallerRate("caller-57"), 9);
    }

    [Fact]
    public void RecordDownstreamCall_InstancesBeyondBound_StillCountTowardsAmplification()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { EwmaWeight = 1, MaxDownstreamTargets = 3 });
        var workflow = model.Get(new WorkflowId("w"));
        workflow.RecordAdmitted();
        for (var i = 0; i < 6; i++)
        {
            workflow.RecordDownstreamCall("bs", $"bs-{i}");
        }

        _clock.Advance(TimeSpan.FromSeconds(1));
        model.CloseInterval();

        // One service and two instances fit the bound of 3; all six calls count: α = 6.
        Assert.True(workflow.TryGetAmplification("bs", out var alpha));
        Assert.Equal(6, alpha, 9);
        Assert.Equal(0, workflow.GetInstanceFraction("bs", "bs-5"));
    }

    [Fact]
    public void RecordCompletion_And_EndToEndTotals_AreAveraged()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { SampleEwmaWeight = 0.5 });
        var workflow = model.Get(new WorkflowId("w"));

        workflow.RecordCompletion(TimeSpan.FromMilliseconds(100));
        workflow.RecordCompletion(TimeSpan.FromMilliseconds(200));
        workflow.RecordEndToEndTotals(new ProgressDelta(0.04, 1));
        workflow.RecordEndToEndTotals(new ProgressDelta(0.02, 3));

        Assert.Equal(0.150, workflow.CompletionSeconds, 9);
        Assert.Equal(0.03, workflow.EstimatedTotal.ServiceTime, 9);
        Assert.Equal(2, workflow.EstimatedTotal.Load, 9);
    }

    [Fact]
    public void EstimateCompletionSeconds_ScalesTheRequestsOwnEstimate_ByTimeHerePerEstimatedSecond()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { SampleEwmaWeight = 0.5 });
        var workflow = model.Get(new WorkflowId("w"));
        RequestContext Sized(double serviceSeconds) => RequestContext.Start("w", _clock).WithEstimatedTotal(new ProgressDelta(serviceSeconds, 0));

        // Nothing known yet: 0, as L is.
        Assert.Equal(0, workflow.EstimateCompletionSeconds(Sized(0.01)));

        // A 10 ms request took 30 ms and a 100 ms one 200 ms: 3 and 2 per estimated second, averaged 2.5; L is 115 ms.
        workflow.RecordCompletion(Sized(0.01), TimeSpan.FromMilliseconds(30));
        workflow.RecordCompletion(Sized(0.1), TimeSpan.FromMilliseconds(200));

        Assert.Equal(0.115, workflow.CompletionSeconds, 9);
        Assert.Equal(0.025, workflow.EstimateCompletionSeconds(Sized(0.01)), 9);

        // A large request is judged by no more than L (2.5 x 100 ms would be 250 ms): the scaled estimate only ever makes
        // the admission test more lenient than the workflow's average, never stricter (decision 0013's amendment).
        Assert.Equal(0.115, workflow.EstimateCompletionSeconds(Sized(0.1)), 9);

        // A request without its own estimate is judged by the workflow's average, L.
        Assert.Equal(0.115, workflow.EstimateCompletionSeconds(RequestContext.Start("w", _clock)), 9);
    }

    [Fact]
    public void EstimateCompletionSeconds_IsL_WhileNoCompletedRequestCarriedAnEstimate()
    {
        var model = new LocalModel(_registry, _clock, new LocalModelOptions { SampleEwmaWeight = 0.5 });
        var workflow = model.Get(new WorkflowId("w"));
        workflow.RecordCompletion(RequestContext.Start("w", _clock), TimeSpan.FromMilliseconds(80));

        var sized = RequestContext.Start("w", _clock).WithEstimatedTotal(new ProgressDelta(0.5, 0));
        Assert.Equal(0.08, workflow.EstimateCompletionSeconds(sized), 9);
    }

    [Fact]
    public void Ewma_FirstSampleSets_ThenWeights()
    {
        var average = new Ewma(0.25);
        Assert.False(average.HasValue);

        average.Update(8);
        average.Update(0);
        average.Update(double.NaN);

        Assert.Equal(6, average.Value);
        Assert.Throws<ArgumentOutOfRangeException>(() => new Ewma(0));
        Assert.Throws<ArgumentOutOfRangeException>(() => new Ewma(1.5));
    }

    [Fact]
    public void LocalModel_Options_AreValidated()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new LocalModel(_registry, _clock, new LocalModelOptions { EwmaWeight = 0 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LocalModel(_registry, _clock, new LocalModelOptions { MaxCallersPerWorkflow = 0 }));
    }
}
