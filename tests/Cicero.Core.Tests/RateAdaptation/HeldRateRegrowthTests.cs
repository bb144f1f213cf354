// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Measurement;
using Cicero.Model;
using Cicero.RateAdaptation;
using Cicero.Resources;
using Cicero.Time;
using Cicero.Workflows;
using static Cicero.Tests.Shared.ValueTaskAssert;

namespace Cicero.Tests.RateAdaptation;

/// <summary>
/// <see cref="RateAdaptationOptions.HeldRateRegrowth"/>: after a cut, a workflow that still offers more than it was
/// allowed regrows slowly while the cut is still warranted, and at the policy's pace otherwise.
/// </summary>
public sealed class HeldRateRegrowthTests
{
    private const double Cut = 10;
    private const double Released = 100;
    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(100);
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new();
    private readonly LocalModel _model;
    private readonly ResourceSemaphore _disk;
    private readonly CapacityPolicy _policy = new(Released);
    private bool _answersDownstream;

    public HeldRateRegrowthTests()
    {
        var modelOptions = new LocalModelOptions { EwmaWeight = 1 };
        _model = new LocalModel(_registry, _clock, modelOptions);
        _disk = new ResourceSemaphore(new ResourceSemaphoreOptions { Name = "disk", Capacity = 1 }, _registry, timeProvider: _clock, modelOptions: modelOptions);
        _model.AddResource(_disk);
    }

    [Fact]
    public void LocalCut_WhileTheResourceIsBusy_RegrowsByTheLimit()
    {
        using var controller = Controller(new HeldRateRegrowthOptions());
        using var held = Completed(_disk.AcquireAsync(RequestContext.Start("other", _clock)));

        var sigma = CutThenRelease(controller, offered: 50);

        // 10 × 1.02^0.1 + 1 × 0.1 ≈ 10.12 after one interval, not the policy's 100.
        Assert.Equal((Cut * Math.Pow(1.02, 0.1)) + 0.1, sigma, 9);
    }

    [Fact]
    public void LocalCut_OnceTheResourceIsIdle_HealsAtThePolicysPace()
    {
        using var controller = Controller(new HeldRateRegrowthOptions());

        var sigma = CutThenRelease(controller, offered: 50);

        Assert.Equal(Released, sigma);
    }

    [Fact]
    public void Off_ByDefault_ReleasesAtOnce()
    {
        using var controller = Controller(regrowth: null);
        using var held = Completed(_disk.AcquireAsync(RequestContext.Start("other", _clock)));

        var sigma = CutThenRelease(controller, offered: 50);

        Assert.Equal(Released, sigma);
    }

    [Fact]
    public void WorkflowOfferingNoMoreThanItsRate_IsNotHeld()
    {
        using var controller = Controller(new HeldRateRegrowthOptions());
        using var held = Completed(_disk.AcquireAsync(RequestContext.Start("other", _clock)));

        var sigma = CutThenRelease(controller, offered: 5);

        Assert.Equal(Released, sigma);
    }

    [Fact]
    public void CutFromDownstream_RegrowsByTheLimit_ThoughNothingHereIsBusy()
    {
        using var controller = Controller(new HeldRateRegrowthOptions { RelativePerSecond = 0, AdditivePerSecond = 20 });
        controller.SetDownstreamInstances("ps", ["ps-1"]);
        _answersDownstream = true;
        var workflow = _model.Get(_registry.Resolve("w"));

        Step(controller, workflow, offered: 50, downstreamLimit: Cut);
        Assert.Equal(Cut, controller.GetAnnouncedRate("w"), 9);
        var sigmas = new List<double>();
        for (var i = 0; i < 3; i++)
        {
            // The downstream no longer limits the workflow, but it still offers 50/s against σ: 20/s a second, 2 per interval.
            Step(controller, workflow, offered: 50, downstreamLimit: null);
            sigmas.Add(controller.GetAnnouncedRate("w"));
        }

        Assert.Equal([Cut + 2, Cut + 4, Cut + 6], sigmas.Select(s => Math.Round(s, 9)));
    }

    [Fact]
    public void RegrowthLimit_DoesNotHoldBackACut()
    {
        using var controller = Controller(new HeldRateRegrowthOptions());
        using var held = Completed(_disk.AcquireAsync(RequestContext.Start("other", _clock)));
        var workflow = _model.Get(_registry.Resolve("w"));
        Step(controller, workflow, offered: 50);

        _policy.Capacity = 3;
        Step(controller, workflow, offered: 50);

        Assert.Equal(3, controller.GetAnnouncedRate("w"));
    }

    [Theory]
    [InlineData(-0.1, 1, 0.8, "HeldRateRegrowth:RelativePerSecond")]
    [InlineData(double.NaN, 1, 0.8, "HeldRateRegrowth:RelativePerSecond")]
    [InlineData(0.02, -1, 0.8, "HeldRateRegrowth:AdditivePerSecond")]
    [InlineData(0, 0, 0.8, "HeldRateRegrowth:AdditivePerSecond")]
    [InlineData(0.02, 1, 0, "HeldRateRegrowth:BusyFraction")]
    [InlineData(0.02, 1, 5, "HeldRateRegrowth:BusyFraction")]
    public void InvalidOptions_AreRefused_NamingTheSetting(double relative, double additive, double busy, string parameter)
    {
        var options = new RateAdaptationOptions
        {
            HeldRateRegrowth = new HeldRateRegrowthOptions { RelativePerSecond = relative, AdditivePerSecond = additive, BusyFraction = busy },
        };

        var error = Assert.ThrowsAny<ArgumentException>(() => new RateAdaptationController(options, _model, _policy, timeProvider: _clock));

        Assert.Equal(parameter, error.ParamName);
    }

    private RateAdaptationController Controller(HeldRateRegrowthOptions? regrowth) =>
        new(new RateAdaptationOptions { Interval = Interval, HeldRateRegrowth = regrowth }, _model, _policy, timeProvider: _clock);

    /// <summary>Runs the policy at the released rate, cuts to <see cref="Cut"/>, releases it again, and returns σ then.</summary>
    private double CutThenRelease(RateAdaptationController controller, int offered)
    {
        var workflow = _model.Get(_registry.Resolve("w"));
        Step(controller, workflow, offered);
        _policy.Capacity = Cut;
        Step(controller, workflow, offered);
        Assert.Equal(Cut, controller.GetAnnouncedRate("w"));
        _policy.Capacity = Released;
        Step(controller, workflow, offered);
        return controller.GetAnnouncedRate("w");
    }

    /// <summary>One interval in which the workflow offers <paramref name="offered"/> requests a second, then a step.</summary>
    private void Step(RateAdaptationController controller, WorkflowModel workflow, int offered, double? downstreamLimit = null)
    {
        var arrivals = (int)(offered * Interval.TotalSeconds);
        for (var i = 0; i < arrivals; i++)
        {
            workflow.RecordArrival();
            workflow.RecordAdmitted();
            workflow.RecordDownstreamCall("ps", "ps-1");
        }

        _clock.Advance(Interval);
        var now = _clock.GetTimestamp();
        if (_answersDownstream)
        {
            var rates = downstreamLimit is { } limit ? new DownstreamRateAnswer([new WorkflowRate("w", limit)]) : DownstreamRateAnswer.Empty;
            controller.RecordAnswer(new("ps", "ps-1"), rates, now);
        }

        controller.Step(now);
    }
}
