// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.RateAdaptation;
using Cicero.Resources;
using Cicero.Runtime;
using Cicero.Tests.RateAdaptation;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Tests.Runtime;

/// <summary>The one place runtimes are assembled: what each factory receives, and the documented build order.</summary>
public class CiceroRuntimeBuilderTests
{
    private readonly VirtualTimeProvider _clock = new();

    [Fact]
    public void Build_GivesEveryFactoryTheRuntimesOwnRegistry_AndCreatesResourcesInOrder()
    {
        var order = new List<string>();
        WorkflowRegistry? dropRegistry = null;
        var schedulerContexts = new List<SubtaskSchedulerContext>();
        RateLimitPolicyContext? policyContext = null;
        var builder = new CiceroRuntimeBuilder
        {
            TimeProvider = _clock,
            DropPolicy = registry =>
            {
                order.Add("drop");
                dropRegistry = registry;
                return new DropAll();
            },
            RateLimitPolicy = context =>
            {
                order.Add("rate-limit");
                policyContext = context;
                return new FixedPolicy(5);
            },
        };
        builder.Options.RateAdaptation.Interval = TimeSpan.FromMilliseconds(250);
        builder.Workflows.Add("first");
        builder.Workflows.Add("second");
        builder
            .AddResource(new ResourceSemaphoreOptions { Name = "cpu", Capacity = 4, MaxQueueLength = 8 }, context =>
            {
                order.Add("cpu");
                schedulerContexts.Add(context);
                return new FifoScheduler();
            })
            .AddResource(new ResourceSemaphoreOptions { Name = "disk", Capacity = 2, MaxQueueLength = 16 }, context =>
            {
                // The workflows registered up front exist before any scheduler is created.
                order.Add(context.Registry.TryGet("second", out _) ? "disk" : "disk-too-early");
                schedulerContexts.Add(context);
                return new FifoScheduler();
            });

        using var runtime = builder.Build();

        Assert.Equal(["drop", "cpu", "disk", "rate-limit"], order);
        Assert.Same(runtime.Registry, dropRegistry);
        Assert.Same(runtime.Registry, policyContext!.Registry);
        Assert.Equal(TimeSpan.FromMilliseconds(250), policyContext.Interval);
        Assert.All(schedulerContexts, c => Assert.Same(runtime.Registry, c.Registry));
        Assert.Equal(("disk", 2, _clock.TimestampFrequency), (schedulerContexts[1].ResourceName, schedulerContexts[1].Capacity, schedulerContexts[1].TimestampFrequency));
        Assert.Equal(4, runtime.GetResource("cpu").Capacity);
        Assert.Equal(16, runtime.GetResource("disk").MaxQueueLength);
        Assert.Same(_clock, runtime.TimeProvider);
        Assert.Same(builder.Options, runtime.Options);

        // Registered in the order given, ahead of anything a request brings.
        Assert.True(runtime.Registry.TryGet("first", out var first));
        Assert.True(runtime.Registry.TryGet("second", out var second));
        Assert.True(first.Index < second.Index);

        // The built drop policy is the one admission uses.
        Assert.Equal(DropReason.Policy, runtime.Admission.TryAdmit(runtime.StartRequest("w")).Reason);

        // And the built rate-limit policy is the one rate adaptation steps.
        runtime.RateAdaptation.Step(_clock.GetTimestamp());
        Assert.Equal(5, runtime.RateAdaptation.GetAnnouncedRate("first"));
    }

    [Fact]
    public void Build_Twice_GivesIndependentRuntimes()
    {
        var schedulers = 0;
        var builder = new CiceroRuntimeBuilder { TimeProvider = _clock }
            .AddResource(new ResourceSemaphoreOptions { Name = "disk", Capacity = 1, MaxQueueLength = 1 }, _ =>
            {
                schedulers++;
                return new FifoScheduler();
            });

        using var a = builder.Build();
        using var b = builder.Build();

        Assert.NotSame(a.Registry, b.Registry);
        Assert.NotSame(a.GetResource("disk"), b.GetResource("disk"));
        Assert.Equal(2, schedulers);
    }

    [Fact]
    public void Build_WithoutPolicies_UsesTheDefaults()
    {
        using var runtime = new CiceroRuntimeBuilder { TimeProvider = _clock }.Build();

        // Deadline feasibility admits a request with no deadline; pass-through announces no limit after a step.
        Assert.True(runtime.Admission.TryAdmit(runtime.StartRequest("w")).IsAdmitted);
        runtime.RateAdaptation.Step(_clock.GetTimestamp());
        Assert.Equal(double.PositiveInfinity, runtime.RateAdaptation.GetAnnouncedRate("w"));
    }

    [Fact]
    public void AddResource_SameNameTwice_SaysWhichName()
    {
        var builder = new CiceroRuntimeBuilder().AddResource(new ResourceSemaphoreOptions { Name = "disk", Capacity = 1, MaxQueueLength = 1 });

        var ex = Assert.Throws<ArgumentException>(() => builder.AddResource(new ResourceSemaphoreOptions { Name = "disk", Capacity = 2, MaxQueueLength = 1 }));
        Assert.Contains("'disk'", ex.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => builder.AddResource(new ResourceSemaphoreOptions { Name = " ", Capacity = 1, MaxQueueLength = 1 }));
    }

    private sealed class DropAll : IDropPolicy
    {
        public DropDecision Evaluate(in AdmissionCandidate candidate, long now) => DropDecision.Drop(DropReason.Policy);
    }
}
