// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class PowerOfTwoChoicesSelectorTests : ReplicaSelectorConformanceTests
{
    // τ = 10 s (the default); timestamps are milliseconds, so 10,000 ticks is one τ.
    private const long Tau = 10_000;

    protected override string ExpectedName => "p2c-peak-ewma";

    [Fact]
    public void PeakEwma_SampleAboveEstimate_JumpsToIt()
    {
        var (selector, replica) = Single();
        selector.OnFeedback(replica, Feedback(0.1), 0);
        Assert.Equal(0.1, selector.GetLatency(replica, 0), 12);

        selector.OnFeedback(replica, Feedback(0.3), 1000);

        Assert.Equal(0.3, selector.GetLatency(replica, 1000), 12);
    }

    [Fact]
    public void PeakEwma_BetweenSamples_DecaysByExpMinusElapsedOverTau()
    {
        var (selector, replica) = Single();
        selector.OnFeedback(replica, Feedback(0.2), 0);

        // 0.2 × e^−0.5 and 0.2 × e^−1.
        Assert.Equal(0.12130613194252668, selector.GetLatency(replica, Tau / 2), 12);
        Assert.Equal(0.07357588823428847, selector.GetLatency(replica, Tau), 12);
    }

    [Fact]
    public void PeakEwma_SampleBelowEstimate_BlendsWithWeightOneMinusW()
    {
        var (selector, replica) = Single();
        selector.OnFeedback(replica, Feedback(0.3), 0);

        // w = e^−1 = 0.36787944; 0.3 w + 0.05 (1 − w) = 0.11036383 + 0.03160603.
        selector.OnFeedback(replica, Feedback(0.05), Tau);

        Assert.Equal(0.14196986029285058, selector.GetLatency(replica, Tau), 12);
    }

    [Fact]
    public void PeakEwma_SampleAboveDecayedEstimate_JumpsEvenBelowThePastPeak()
    {
        var (selector, replica) = Single();
        selector.OnFeedback(replica, Feedback(0.1), 0);

        // Decayed to 0.1 × e^−1 = 0.0368 by then, so 0.05 is a new peak.
        selector.OnFeedback(replica, Feedback(0.05), Tau);

        Assert.Equal(0.05, selector.GetLatency(replica, Tau), 12);
    }

    [Fact]
    public void PeakEwma_FailedCall_RaisesButNeverLowersTheEstimate()
    {
        var (selector, replica) = Single();
        selector.OnFeedback(replica, Feedback(0.2), 0);

        selector.OnFeedback(replica, Feedback(0.001, failed: true), 0);
        Assert.Equal(0.2, selector.GetLatency(replica, 0), 12);

        selector.OnFeedback(replica, Feedback(0.5, failed: true), 0);
        Assert.Equal(0.5, selector.GetLatency(replica, 0), 12);
    }

    [Fact]
    public void GetCost_IsLatencyTimesOutstandingPlusOne_WithPenaltyForABusyUnmeasuredReplica()
    {
        var (selector, replica) = Single();
        var unmeasured = new ReplicaState("new");
        Assert.Equal(0, selector.GetCost(unmeasured, 0));
        unmeasured.Outstanding = 2;
        Assert.Equal(PowerOfTwoChoicesSelector.Penalty + 2, selector.GetCost(unmeasured, 0));

        selector.OnFeedback(replica, Feedback(0.1), 0);
        replica.Outstanding = 2;

        Assert.Equal(0.3, selector.GetCost(replica, 0), 12);
    }

    [Fact]
    public void Choose_TwoReplicas_PicksTheLowerCost()
    {
        var selector = Create(1);
        var replicas = Replicas(2);
        selector.OnFeedback(replicas[0], Feedback(0.1), 0);
        selector.OnFeedback(replicas[1], Feedback(0.02), 0);
        replicas[1].Outstanding = 2;

        // 0.1 × 1 against 0.02 × 3 = 0.06.
        for (var i = 0; i < 20; i++)
        {
            Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, 0));
        }

        // 0.02 × 6 = 0.12 > 0.1.
        replicas[1].Outstanding = 5;
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(replicas, 0));
    }

    [Fact]
    public void Choose_PicksTheCheaperOfTheTwoSampledCandidates()
    {
        var selector = Create(9);
        var replicas = ThreeWithCosts(selector);
        var mirror = new Random(9);

        for (var i = 0; i < 300; i++)
        {
            var first = mirror.Next(3);
            var second = mirror.Next(2);
            second += second >= first ? 1 : 0;
            Assert.Equal(ReplicaChoice.Replica(Math.Min(first, second)), selector.Choose(replicas, 0));
        }
    }

    [Fact]
    public void Choose_ThreeReplicas_WorstNeverWinsAndBestWinsEveryPairItIsIn()
    {
        var selector = Create(4);
        var replicas = ThreeWithCosts(selector);
        var counts = new int[3];

        for (var i = 0; i < 30_000; i++)
        {
            counts[selector.Choose(replicas, 0).Index]++;
        }

        // Pairs {0,1} and {0,2} go to 0, {1,2} to 1, each pair a third of the time.
        Assert.InRange(counts[0], 19_400, 20_600);
        Assert.InRange(counts[1], 9_400, 10_600);
        Assert.Equal(0, counts[2]);
    }

    [Fact]
    public void Choose_UnmeasuredReplica_IsTriedOnceUntilItAnswers()
    {
        var selector = Create(2);
        var replicas = Replicas(2);
        selector.OnFeedback(replicas[0], Feedback(0.05), 0);

        Assert.Equal(1, Send(selector, replicas, 0));
        Assert.Equal(0, Send(selector, replicas, 0));
    }

    [Fact]
    public void Options_InvalidDecayTime_Throws()
    {
        foreach (var decay in new[] { TimeSpan.Zero, TimeSpan.FromSeconds(-1), TimeSpan.MaxValue })
        {
            var options = new PowerOfTwoChoicesOptions { DecayTime = decay };
            Assert.Equal("DecayTime", Assert.Throws<ArgumentOutOfRangeException>(() => new PowerOfTwoChoicesSelector(options, Frequency)).ParamName);
            Assert.Throws<ArgumentOutOfRangeException>(() => PowerOfTwoChoicesSelector.CreateFactory(options));
        }

        Assert.Throws<ArgumentOutOfRangeException>(() => new PowerOfTwoChoicesSelector(new PowerOfTwoChoicesOptions(), 0));
    }

    protected override IReplicaSelector CreateSelector() => Create(1);

    protected override ReplicaSelectorFactory CreateFactory() => PowerOfTwoChoicesSelector.CreateFactory(new PowerOfTwoChoicesOptions { Random = new Random(1) });

    private static PowerOfTwoChoicesSelector Create(int seed) =>
        new(new PowerOfTwoChoicesOptions { Random = new Random(seed) }, Frequency);

    private static (PowerOfTwoChoicesSelector Selector, ReplicaState Replica) Single() => (Create(1), new ReplicaState("r"));

    /// <summary>Three idle replicas measured at 10, 20 and 30 ms, so their costs rank by index.</summary>
    private static ReplicaState[] ThreeWithCosts(PowerOfTwoChoicesSelector selector)
    {
        var replicas = Replicas(3);
        for (var i = 0; i < 3; i++)
        {
            selector.OnFeedback(replicas[i], Feedback((i + 1) / 100.0), 0);
        }

        return replicas;
    }
}
