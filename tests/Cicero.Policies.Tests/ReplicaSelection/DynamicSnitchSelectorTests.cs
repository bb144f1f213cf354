// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class DynamicSnitchSelectorTests : ReplicaSelectorConformanceTests
{
    // Timestamps are milliseconds: updates every 100, resets every 600,000.
    private const long Update = 100;
    private const long Reset = 600_000;

    protected override string ExpectedName => "dynamic-snitch";

    [Fact]
    public void Choose_NaturalFirstWithinBadnessThreshold_KeepsNaturalOrder()
    {
        var (selector, replicas) = Scored(0.105, 0.100, 0.200);

        // 0.105 ≤ 0.100 × 1.1.
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, Update));
    }

    [Fact]
    public void Choose_NaturalFirstBeyondBadnessThreshold_TakesTheBest()
    {
        var (selector, replicas) = Scored(0.120, 0.100, 0.200);

        // 0.120 > 0.100 × 1.1.
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, Update));
    }

    [Fact]
    public void Choose_ZeroThreshold_AlwaysTakesTheBest()
    {
        var (selector, replicas) = Scored(new DynamicSnitchOptions { BadnessThreshold = 0, SampleWeight = 1 }, 0.101, 0.100);

        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, Update));
    }

    [Fact]
    public void Choose_NaturalFirstDown_NextUpIsNatural()
    {
        var (selector, replicas) = Scored(0.01, 0.105, 0.100);
        replicas[0].IsDown = true;

        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, Update));
    }

    [Fact]
    public void Choose_ScoresRefreshOnlyAfterTheUpdateInterval()
    {
        var (selector, replicas) = Scored(0.1, 0.1);
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, Update));

        selector.OnFeedback(replicas[0], Feedback(0.5), Update + 10);
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, Update + 50));
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, (2 * Update) - 1));

        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, 2 * Update));
    }

    [Fact]
    public void Choose_BeforeTheFirstUpdate_NoScores_KeepsNaturalOrder()
    {
        var selector = Create(new DynamicSnitchOptions { SampleWeight = 1 });
        var replicas = Replicas(2);
        selector.Choose(replicas, 0);
        selector.OnFeedback(replicas[0], Feedback(0.9), 1);
        selector.OnFeedback(replicas[1], Feedback(0.1), 1);

        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, Update - 1));
    }

    [Fact]
    public void Choose_AfterTheResetInterval_ForgetsScores()
    {
        var (selector, replicas) = Scored(0.5, 0.1);
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, Update));
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, Reset - 1));

        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, Reset));

        // New samples score again at the next update.
        selector.OnFeedback(replicas[0], Feedback(0.5), Reset + 10);
        selector.OnFeedback(replicas[1], Feedback(0.1), Reset + 10);
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, Reset + 50));
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, Reset + Update));
    }

    [Fact]
    public void Choose_UnscoredReplica_IsLeftOutOfTheCheckButRanksFirstOnceItFails()
    {
        // Replica 1 has no samples: 0.1 against the best scored 0.1 keeps the natural order.
        var selector = Create(new DynamicSnitchOptions { SampleWeight = 1 });
        var replicas = Replicas(3);
        selector.Choose(replicas, 0);
        selector.OnFeedback(replicas[0], Feedback(0.1), 1);
        selector.OnFeedback(replicas[2], Feedback(0.1), 1);
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, Update));

        // Replica 0 at 0.5 fails the check against 0.1; unscored replica 1 scores 0 and comes first (Cassandra's order).
        selector.OnFeedback(replicas[0], Feedback(0.5), Update + 1);
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, 2 * Update));
    }

    [Fact]
    public void OnFeedback_AveragesSamplesWithTheSampleWeight()
    {
        // Default weight 0.1: replica 0 averages 0.1 and 0.15 to 0.105, within 10 % of 0.1 (the last sample alone is not).
        var selector = Create(new DynamicSnitchOptions());
        var replicas = Replicas(2);
        selector.Choose(replicas, 0);
        selector.OnFeedback(replicas[0], Feedback(0.1), 1);
        selector.OnFeedback(replicas[0], Feedback(0.15), 2);
        selector.OnFeedback(replicas[1], Feedback(0.1), 3);

        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, Update));
    }

    [Fact]
    public void OnFeedback_FailedFasterCall_DoesNotLowerTheLatency()
    {
        var (selector, replicas) = Scored(0.3, 0.1);
        selector.OnFeedback(replicas[0], Feedback(0.001, failed: true), Update + 1);

        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, 2 * Update));
    }

    [Fact]
    public void Options_Invalid_Throw()
    {
        Assert.Equal("UpdateInterval", Invalid(new DynamicSnitchOptions { UpdateInterval = TimeSpan.Zero }));
        Assert.Equal("ResetInterval", Invalid(new DynamicSnitchOptions { ResetInterval = TimeSpan.FromMilliseconds(50) }));
        Assert.Equal("BadnessThreshold", Invalid(new DynamicSnitchOptions { BadnessThreshold = -0.1 }));
        Assert.Equal("BadnessThreshold", Invalid(new DynamicSnitchOptions { BadnessThreshold = double.NaN }));
        Assert.Equal("SampleWeight", Invalid(new DynamicSnitchOptions { SampleWeight = 0 }));
        Assert.Equal("SampleWeight", Invalid(new DynamicSnitchOptions { SampleWeight = 1.5 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => new DynamicSnitchSelector(new DynamicSnitchOptions(), 0));
    }

    protected override IReplicaSelector CreateSelector() => Create(new DynamicSnitchOptions());

    protected override ReplicaSelectorFactory CreateFactory() => DynamicSnitchSelector.CreateFactory();

    /// <summary>Identical replicas keep the natural order: every pick goes to the first replica.</summary>
    protected override void VerifySpreadOverIdenticalReplicas(int[] counts, ReplicaState[] replicas) =>
        Assert.Equal(counts.Sum(), counts[0]);

    private static DynamicSnitchSelector Create(DynamicSnitchOptions options) => new(options, Frequency);

    private static (DynamicSnitchSelector Selector, ReplicaState[] Replicas) Scored(params double[] latencies) =>
        Scored(new DynamicSnitchOptions { SampleWeight = 1 }, latencies);

    /// <summary>Starts the clock at 0 and reports one sample per replica at 1, so the update at 100 scores them.</summary>
    private static (DynamicSnitchSelector Selector, ReplicaState[] Replicas) Scored(DynamicSnitchOptions options, params double[] latencies)
    {
        var selector = Create(options);
        var replicas = Replicas(latencies.Length);
        selector.Choose(replicas, 0);
        for (var i = 0; i < latencies.Length; i++)
        {
            selector.OnFeedback(replicas[i], Feedback(latencies[i]), 1);
        }

        return (selector, replicas);
    }

    private static string? Invalid(DynamicSnitchOptions options)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => DynamicSnitchSelector.CreateFactory(options));
        return Assert.Throws<ArgumentOutOfRangeException>(() => Create(options)).ParamName;
    }
}
