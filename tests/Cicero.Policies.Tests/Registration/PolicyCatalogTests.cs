// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.Policies.Registration;
using Cicero.Policies.Scheduling;
using Cicero.RateAdaptation;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.Registration;

public class PolicyCatalogTests
{
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void Default_HasEveryBuiltInName()
    {
        var catalog = PolicyCatalog.Default;

        Assert.Equal(["cake-shares", "drr", "edf", "fifo", "lasf", "lstf", "priority", "sjf", "srtf"], catalog.SchedulerNames);
        Assert.Equal(["bottleneck-fairness", "bottleneck-fairness-paper", "min-throughput", "pass-through", "static"], catalog.RateLimitPolicyNames);
        Assert.Equal(["deadline-feasibility", "never", "queue-length"], catalog.DropPolicyNames);
        Assert.Equal(["c3", "c3-background", "c3-paper", "dynamic-snitch", "least-outstanding", "oracle", "p2c-peak-ewma", "random", "round-robin"], catalog.ReplicaSelectorNames);
        Assert.IsType<Cicero.Policies.ReplicaSelection.LatencyAwareC3Selector>(catalog.GetReplicaSelector("C3").Create(TimeSpan.TicksPerSecond));
    }

    [Theory]
    [InlineData("fifo", typeof(FifoScheduler))]
    [InlineData("DRR", typeof(DeficitRoundRobinScheduler))]
    [InlineData("edf", typeof(EarliestDeadlineFirstScheduler))]
    [InlineData("lstf", typeof(LeastSlackTimeFirstScheduler))]
    [InlineData("srtf", typeof(ShortestRemainingTimeFirstScheduler))]
    [InlineData("lasf", typeof(LeastAttainedServiceScheduler))]
    [InlineData("sjf", typeof(ShortestJobFirstScheduler))]
    [InlineData("priority", typeof(StrictPriorityScheduler))]
    [InlineData("cake-shares", typeof(CakeShareScheduler))]
    public void GetScheduler_ByName_CreatesThatScheduler(string name, Type expected)
    {
        var scheduler = PolicyCatalog.Default.GetScheduler(name).Create(new SubtaskSchedulerContext("r", 4, TimeSpan.TicksPerSecond, _registry));

        Assert.IsType(expected, scheduler);
    }

    [Fact]
    public void GetScheduler_UnknownName_ListsKnownOnes()
    {
        var error = Assert.Throws<ArgumentException>(() => PolicyCatalog.Default.GetScheduler("edff"));

        Assert.Contains("Unknown sub-task scheduler 'edff'", error.Message, StringComparison.Ordinal);
        Assert.Contains("edf, fifo", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void GetRateLimitPolicy_CakeSlo_ExplainsHowToRegisterIt()
    {
        var error = Assert.Throws<ArgumentException>(() => PolicyCatalog.Default.GetRateLimitPolicy("cake-slo"));

        Assert.Contains("CakeSloController.CreateFactory", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Builder_DuplicateName_Fails_ButReplaceSwaps()
    {
        var builder = PolicyCatalogBuilder.CreateDefault();
        var options = new DeficitRoundRobinOptions { CostSource = SubtaskCostSource.Declared };

        Assert.Throws<ArgumentException>(() => builder.AddScheduler(DeficitRoundRobinScheduler.CreateFactory(options)));
        var catalog = builder.ReplaceScheduler(DeficitRoundRobinScheduler.CreateFactory(options)).Build();

        Assert.IsType<DeficitRoundRobinScheduler>(catalog.GetScheduler("drr").Create(new SubtaskSchedulerContext("r", 1, 1, _registry)));
    }

    [Fact]
    public void Static_RegisteredAsItsPageSays_ReplacesTheBuiltIn_AndAddNamesTheWayToDoIt()
    {
        // docs/policies/static.md: a built-in policy with other options goes in with Replace, not Add.
        var factory = StaticRatePolicy.CreateFactory(new StaticRateOptions { Rates = { ["tenant-a"] = 50 } });

        var error = Assert.Throws<ArgumentException>(() => PolicyCatalogBuilder.CreateDefault().AddRateLimitPolicy(factory));
        Assert.Contains(nameof(PolicyCatalogBuilder.ReplaceRateLimitPolicy), error.Message, StringComparison.Ordinal);
        var catalog = PolicyCatalogBuilder.CreateDefault().ReplaceRateLimitPolicy(factory).Build();

        Assert.Same(factory, catalog.GetRateLimitPolicy(RateLimitPolicies.Static));
    }

    [Fact]
    public void GetRateLimitPolicy_BottleneckFairness_CreatesPolicy()
    {
        var policy = PolicyCatalog.Default.GetRateLimitPolicy("bottleneck-fairness")
            .Create(new RateLimitPolicyContext(_registry, TimeSpan.FromMilliseconds(100)));

        Assert.IsType<Cicero.Policies.RateLimiting.BottleneckFairnessPolicy>(policy);
    }

    [Fact]
    public void From_CopiesEveryPolicy_AndLetsOneBeReplaced()
    {
        var factory = BottleneckFairnessPolicy.CreateFactory(new BottleneckFairnessOptions { MaxDecrease = 0.1 });

        var catalog = PolicyCatalogBuilder.From(PolicyCatalog.Default).ReplaceRateLimitPolicy(factory).Build();

        Assert.Equal(PolicyCatalog.Default.SchedulerNames, catalog.SchedulerNames);
        Assert.Equal(PolicyCatalog.Default.RateLimitPolicyNames, catalog.RateLimitPolicyNames);
        Assert.Equal(PolicyCatalog.Default.DropPolicyNames, catalog.DropPolicyNames);
        Assert.Equal(PolicyCatalog.Default.ReplicaSelectorNames, catalog.ReplicaSelectorNames);
        Assert.Same(factory, catalog.GetRateLimitPolicy(RateLimitPolicies.BottleneckFairness));
        Assert.NotSame(factory, PolicyCatalog.Default.GetRateLimitPolicy(RateLimitPolicies.BottleneckFairness));
    }
}
