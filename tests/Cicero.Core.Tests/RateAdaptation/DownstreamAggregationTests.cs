// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;
using Cicero.Runtime;
using Cicero.Time;

namespace Cicero.Tests.RateAdaptation;

public class DownstreamAggregationTests
{
    private readonly VirtualTimeProvider _clock = new();

    [Theory]
    [InlineData(0.0, 30.0)]
    [InlineData(0.5, double.PositiveInfinity)]
    public void Step_InstanceThatDoesNotListTheWorkflow_CountsAsUnlimitedInTheQuantile(double q, double expected)
    {
        var options = new CiceroOptions();
        options.RateAdaptation.Quantile = q;
        options.Model.EwmaWeight = 1;
        using var parent = new CiceroRuntime(options, _clock);
        parent.RateAdaptation.SetDownstreamInstances("ps", ["ps-1", "ps-2", "ps-3"]);
        var workflow = parent.Model.Get(parent.Registry.Resolve("w"));
        for (var i = 0; i < 30; i++)
        {
            workflow.RecordAdmitted();
            workflow.RecordDownstreamCall("ps", $"ps-{(i % 3) + 1}");
        }

        _clock.Advance(TimeSpan.FromSeconds(1));
        var now = _clock.GetTimestamp();
        // ps-1 limits the workflow to 10 calls/s from us (one third of our calls: 30 requests/s); the others do not limit it.
        parent.RateAdaptation.RecordAnswer(new("ps", "ps-1"), new DownstreamRateAnswer([new WorkflowRate("w", 10)]), now);
        parent.RateAdaptation.RecordAnswer(new("ps", "ps-2"), DownstreamRateAnswer.Empty, now);
        parent.RateAdaptation.RecordAnswer(new("ps", "ps-3"), DownstreamRateAnswer.Empty, now);

        parent.RateAdaptation.Step(now);

        Assert.Equal(expected, parent.RateAdaptation.GetDownstreamRate("w"), 9);
    }

    [Theory]
    [InlineData(4.0, 400.0, double.PositiveInfinity)] // σ′ = 200/s for a workflow offering 30/s: above 4x, not a limit here
    [InlineData(4.0, 40.0, 20.0)] // σ′ = 20/s binds: kept
    [InlineData(double.PositiveInfinity, 400.0, 200.0)] // Algorithm 3 as written keeps every σ′
    public void Step_DownstreamRateFarAboveDemand_DoesNotLimit(double headroom, double answered, double expected)
    {
        var options = new CiceroOptions();
        options.RateAdaptation.DownstreamHeadroom = headroom;
        options.Model.EwmaWeight = 1;
        using var parent = new CiceroRuntime(options, _clock);
        parent.RateAdaptation.SetDownstreamInstances("ps", ["ps-1"]);
        var workflow = parent.Model.Get(parent.Registry.Resolve("w"));
        for (var i = 0; i < 30; i++)
        {
            workflow.RecordArrival();
            workflow.RecordAdmitted();
            workflow.RecordDownstreamCall("ps", "ps-1");
            workflow.RecordDownstreamCall("ps", "ps-1");
        }

        _clock.Advance(TimeSpan.FromSeconds(1));
        var now = _clock.GetTimestamp();
        // Two calls per request: σ′ is half of ps-1's limit on our calls.
        parent.RateAdaptation.RecordAnswer(new("ps", "ps-1"), new DownstreamRateAnswer([new WorkflowRate("w", answered)]), now);

        parent.RateAdaptation.Step(now);

        Assert.Equal(expected, parent.RateAdaptation.GetDownstreamRate("w"), 9);
    }
}
