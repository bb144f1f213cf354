// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class BackgroundAwareSelectorTests : ReplicaSelectorConformanceTests
{
    [Fact]
    public void Score_NetworkPlusCubedQueueTimesServicePlusWeightedWait()
    {
        var selector = new BackgroundAwareSelector(null, Frequency);
        var replica = new ReplicaState("a");

        // Response 10 ms = wait 1 + service 4 + network 5. φ = 5 + 2³ · 4 + 10 · 1 = 47 ms.
        selector.OnFeedback(replica, Feedback(responseMs: 10, serviceMs: 4, queue: 2, waitMs: 1), 0);

        Assert.Equal(47, selector.Score(replica, 0), 9);
    }

    [Fact]
    public void Score_BackgroundActivity_InflatesScore_SoTheReplicaIsAvoided()
    {
        var selector = new BackgroundAwareSelector(null, Frequency);
        ReplicaState[] group = [new("compacting"), new("quiet")];
        selector.OnFeedback(group[0], Feedback(2, 1, 0, 0, background: 0.5), 0);
        selector.OnFeedback(group[1], Feedback(4, 2, 0, 0), 0);

        // compacting: (1 + 0 + 0) · (1 + 10 · 0.5) + 10 · 0.5 · 1 ms of service = 11; quiet: 2 + 0 + 0 = 2.
        Assert.Equal(11, selector.Score(group[0], 0), 9);
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(group, 0));
    }

    [Fact]
    public void Choose_BusyLocalCopyOnAnIdleServer_IsAvoided()
    {
        // The coordinator's own copy: no network and an idle queue, so φ = 0, which no multiplier raises.
        var selector = new BackgroundAwareSelector(null, Frequency);
        ReplicaState[] group = [new("local, collecting garbage"), new("remote, quiet")];
        selector.OnFeedback(group[0], Feedback(responseMs: 5, serviceMs: 5, queue: 0, waitMs: 0, background: 1), 0);
        selector.OnFeedback(group[1], Feedback(responseMs: 2, serviceMs: 1.25, queue: 0, waitMs: 0), 0);

        // local: 0 · 11 + 10 · 5 = 50 ms; remote: 0.75 ms of network.
        Assert.Equal(50, selector.Score(group[0], 0), 9);
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(group, 0));
    }

    [Fact]
    public void Score_TailAdjustment_ReplacesAnOutlierByTheNinetiethPercentile()
    {
        var selector = new BackgroundAwareSelector(null, Frequency);
        var replica = new ReplicaState("a");
        for (var i = 0; i < 99; i++)
        {
            selector.OnFeedback(replica, Feedback(responseMs: 2, serviceMs: 1, queue: 0, waitMs: 0), 0);
        }

        // One 50 ms service-time spike among 100 samples; q̄ = 0.9 after it, so q̄³ = 0.729; network stays 1 ms.
        // Before the interval ends the latest value counts: 1 + 0.729 · 50. At 100 ms p99.9 = 50 ≥ 2 · p95 = 2, so the
        // tail-adjusted service time is p95 = 1 ms: 1 + 0.729 · 1.
        selector.OnFeedback(replica, Feedback(responseMs: 51, serviceMs: 50, queue: 1, waitMs: 0), 1);
        Assert.Equal(1 + (0.729 * 50), selector.Score(replica, 50), 6);
        Assert.Equal(1 + 0.729, selector.Score(replica, 100), 6);
    }

    protected override string ExpectedName => ReplicaSelectorNames.C3Background;

    protected override IReplicaSelector CreateSelector() => new BackgroundAwareSelector(null, Frequency);

    protected override ReplicaSelectorFactory CreateFactory() => BackgroundAwareSelector.CreateFactory();

    private static ReplicaFeedback Feedback(double responseMs, double serviceMs, double queue, double waitMs, double background = 0) =>
        new(TimeSpan.FromMilliseconds(responseMs), queue, TimeSpan.FromMilliseconds(serviceMs), background, false, TimeSpan.FromMilliseconds(waitMs));
}
