// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.Policies.Scheduling;
using Cicero.Runtime;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

public class CakeSloControllerTests
{
    private readonly VirtualTimeProvider _clock = new();

    /// <summary>
    /// A simple latency model: the front end's latency is inversely proportional to its share of the disk, with a
    /// spread so that p99 ≈ 2 × the median. The controller runs on the rate adaptation loop of a runtime driven by a
    /// virtual clock, every 100 ms, and revises shares every second.
    /// </summary>
    [Fact]
    public void Controller_BringsP99UnderSlo_WithBoundedSteps_ThenHolds()
    {
        var (runtime, controller, frontend) = Setup(sloMilliseconds: 25, initialShare: 0.5);
        var history = new List<(double Share, double P99)>();
        // The 99th percentile of 1 + i/100 for i = 0..99 is 1.98 (rank 99 of 100).
        double P99(double share) => 0.010 / share * 1.98;
        _clock.CreateTimer(_ =>
        {
            var share = controller.GetShare("frontend")!.Value;
            for (var i = 0; i < 100; i++)
            {
                // 10 ms / share at the median, rising linearly to ~2x at the tail.
                controller.RecordLatency(frontend, TimeSpan.FromSeconds(0.010 / share * (1 + (i / 100.0))));
            }

            if (history.Count == 0 || history[^1].Share != share)
            {
                history.Add((share, P99(share)));
            }
        }, null, TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(100));

        _clock.Advance(TimeSpan.FromSeconds(60));

        // Needed share: 0.0198 / 0.025 = 0.792. From 0.5 each step is at most 10 % of the share.
        Assert.True(controller.Adjustments >= 50);
        for (var i = 1; i < history.Count; i++)
        {
            Assert.True(Math.Abs(history[i].Share - history[i - 1].Share) <= (0.1 * history[i - 1].Share) + 1e-12, $"step {i} too large");
        }

        var final = controller.GetShare("frontend")!.Value;
        // Within the rounding of the percentile rank over 1,000 samples.
        Assert.True(P99(final) <= 0.025 * 1.0001, $"p99 {P99(final)} s is above the 25 ms SLO");
        Assert.InRange(final, 0.79, 0.8);
        Assert.True(history.Count >= 5);
        runtime.Dispose();
    }

    [Fact]
    public void Controller_GenerousSlo_GivesShareBackToBatch()
    {
        var (runtime, controller, frontend) = Setup(sloMilliseconds: 1000, initialShare: 0.5);
        for (var second = 0; second < 5; second++)
        {
            for (var i = 0; i < 100; i++)
            {
                controller.RecordLatency(frontend, TimeSpan.FromMilliseconds(10));
            }

            controller.Adjust();
        }

        // Performance 100 ≫ 1.2: each step gives back 10 % of the share.
        Assert.Equal(0.5 * Math.Pow(0.9, 5), controller.GetShare("frontend")!.Value, 9);
        runtime.Dispose();
    }

    [Fact]
    public void Controller_ShareExhausted_ReservesAPermit()
    {
        var options = new CakeSloOptions { InitialShare = 0.995 };
        options.Slos["frontend"] = TimeSpan.FromMilliseconds(1);
        var registry = new WorkflowRegistry();
        var scheduler = new CakeShareScheduler(new CakeShareOptions(), registry);
        scheduler.OnCapacityChanged(4);
        var controller = new CakeSloController(options, scheduler);
        var frontend = registry.Resolve("frontend");

        controller.RecordLatency(frontend, TimeSpan.FromMilliseconds(10));
        controller.Adjust();

        Assert.Equal(1, scheduler.GetReservation(frontend));
        Assert.Equal(0.995 - (1.0 / 4), controller.GetShare("frontend")!.Value, 9);
    }

    [Fact]
    public void Options_WithoutSlos_FailAtCreation()
    {
        var scheduler = new CakeShareScheduler(new CakeShareOptions(), new WorkflowRegistry());

        var error = Assert.Throws<ArgumentException>(() => CakeSloController.CreateFactory(new CakeSloOptions(), scheduler));
        Assert.Contains("at least one workflow", error.Message, StringComparison.Ordinal);
    }

    private (CiceroRuntime Runtime, CakeSloController Controller, WorkflowSlot Frontend) Setup(double sloMilliseconds, double initialShare)
    {
        var runtimeOptions = new CiceroOptions();
        var sloOptions = new CakeSloOptions { Interval = TimeSpan.FromSeconds(1), InitialShare = initialShare };
        sloOptions.Slos["frontend"] = TimeSpan.FromMilliseconds(sloMilliseconds);
        CakeSloController? controller = null;
        CakeShareScheduler? scheduler = null;
        var runtime = new CiceroRuntime(runtimeOptions, _clock, new LazyPolicy(() => controller!));
        scheduler = new CakeShareScheduler(new CakeShareOptions(), runtime.Registry);
        runtime.AddResource(new() { Name = "disk", Capacity = 4 }, scheduler);
        runtime.Registry.Resolve("batch");
        controller = new CakeSloController(sloOptions, scheduler);
        runtime.RateAdaptation.Start();
        return (runtime, controller, runtime.Registry.Resolve("frontend"));
    }

    /// <summary>The runtime needs its policy before the scheduler (which needs the runtime's registry) exists.</summary>
    private sealed class LazyPolicy(Func<Cicero.RateAdaptation.IRateLimitPolicy> policy) : Cicero.RateAdaptation.IRateLimitPolicy
    {
        public void ComputeLocalRates(Cicero.RateAdaptation.LocalRateInputs inputs, Span<double> localRates, long now) =>
            policy().ComputeLocalRates(inputs, localRates, now);
    }
}
