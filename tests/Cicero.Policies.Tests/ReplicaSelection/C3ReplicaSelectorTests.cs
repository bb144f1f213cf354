// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class C3ReplicaSelectorTests
{
    private const long Frequency = TimeSpan.TicksPerSecond;

    [Fact]
    public void Score_IsResponseMinusServicePlusCubedQueueEstimateTimesService_WithConcurrencyCompensation()
    {
        var selector = new C3ReplicaSelector(new C3Options { ClientCount = 5 }, Frequency);
        var replica = new ReplicaState("a") { Outstanding = 1 };

        selector.OnFeedback(replica, Feedback(responseMs: 10, serviceMs: 4, queue: 2), 0);

        // q̂ = 1 + os · n + q̄ = 1 + 1 · 5 + 2 = 8; Ψ = 10 − 4 + 8³ · 4 = 2054 ms.
        Assert.Equal(2054, selector.Score(replica), 9);

        // EWMAs weigh the new sample 0.9: R̄ = 19, 1/μ̄ = 2.2, q̄ = 0.2; with os = 0, q̂ = 1.2.
        replica.Outstanding = 0;
        selector.OnFeedback(replica, Feedback(responseMs: 20, serviceMs: 2, queue: 0), 0);
        Assert.Equal(19 - 2.2 + (1.2 * 1.2 * 1.2 * 2.2), selector.Score(replica), 9);
    }

    [Fact]
    public void Choose_UnmeasuredReplicaScoresZero_AndIsTriedFirst()
    {
        var selector = new C3ReplicaSelector(new C3Options(), Frequency);
        ReplicaState[] group = [new("a"), new("b"), new("c")];
        selector.OnFeedback(group[0], Feedback(1, 1, 0), 0);
        selector.OnFeedback(group[2], Feedback(1, 1, 0), 0);

        Assert.Equal(0, selector.Score(group[1]));
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(group, 0));
    }

    [Fact]
    public void Choose_BestScoreWithinRate_ElseNext_ElseBacklog()
    {
        var selector = new C3ReplicaSelector(new C3Options(), Frequency);
        ReplicaState[] group = [new("slow"), new("fast"), new("medium")];
        selector.OnFeedback(group[0], Feedback(50, 20, 5), 0);
        selector.OnFeedback(group[1], Feedback(5, 2, 0), 0);
        selector.OnFeedback(group[2], Feedback(10, 4, 1), 0);

        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(group, 0));

        // Exhaust the fast replica's tokens: the next best within its rate is chosen.
        Drain(selector, group[1]);
        Assert.Equal(ReplicaChoice.Replica(2), selector.Choose(group, 0));

        Drain(selector, group[2]);
        Drain(selector, group[0]);
        Assert.Equal(ReplicaChoice.Backlog, selector.Choose(group, 0));
        Assert.Equal(TimeSpan.FromMilliseconds(2).Ticks, selector.TimeUntilAvailable(group, 0));
    }

    [Fact]
    public void Choose_EmptyOrAllDown_FailsWithReason()
    {
        var selector = new C3ReplicaSelector(new C3Options(), Frequency);

        Assert.Equal(ReplicaChoiceKind.Fail, selector.Choose([], 0).Kind);
        var choice = selector.Choose([new ReplicaState("a") { IsDown = true }, new ReplicaState("b") { IsDown = true }], 0);
        Assert.Equal(ReplicaChoiceKind.Fail, choice.Kind);
        Assert.Contains("down", choice.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Choose_SkipsDownReplica_EvenIfBest()
    {
        var selector = new C3ReplicaSelector(new C3Options(), Frequency);
        ReplicaState[] group = [new("a") { IsDown = true }, new("b")];
        selector.OnFeedback(group[1], Feedback(100, 50, 10), 0);

        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(group, 0));
    }

    [Fact]
    public void OnFeedback_FailedResponse_ChangesNothing()
    {
        var selector = new C3ReplicaSelector(new C3Options(), Frequency);
        var replica = new ReplicaState("a");

        selector.OnFeedback(replica, new ReplicaFeedback(TimeSpan.FromSeconds(5), 100, TimeSpan.FromSeconds(5), failed: true), 0);

        Assert.Equal(0, selector.Score(replica));
    }

    private static void Drain(C3ReplicaSelector selector, ReplicaState replica)
    {
        while (selector.GetRateController(replica, 0).HasToken(0))
        {
            selector.OnSent(replica, 0);
        }
    }

    private static ReplicaFeedback Feedback(double responseMs, double serviceMs, double queue) =>
        new(TimeSpan.FromMilliseconds(responseMs), queue, TimeSpan.FromMilliseconds(serviceMs));
}
