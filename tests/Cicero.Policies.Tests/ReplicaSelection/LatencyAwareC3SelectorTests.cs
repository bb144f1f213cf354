// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class LatencyAwareC3SelectorConformanceTests : ReplicaSelectorConformanceTests
{
    protected override string ExpectedName => ReplicaSelectorNames.C3;

    protected override IReplicaSelector CreateSelector() => new LatencyAwareC3Selector(new C3Options(), Frequency);

    protected override ReplicaSelectorFactory CreateFactory() => LatencyAwareC3Selector.CreateFactory();
}

public class LatencyAwareC3SelectorTests
{
    private const long Frequency = TimeSpan.TicksPerSecond;

    private static long At(double seconds) => (long)(seconds * Frequency);

    private static ReplicaFeedback Feedback(double responseMs, double serviceMs, double queue = 0) =>
        new(TimeSpan.FromMilliseconds(responseMs), queue, TimeSpan.FromMilliseconds(serviceMs));

    [Fact]
    public void A_server_without_a_queue_keeps_the_calls_on_the_fast_replicas_where_the_paper_sends_them_to_the_slow_one()
    {
        // Issue 35's configuration A as one client sees it: 16 calls in flight, 8 on each fast replica (1 ms, which
        // the servers also report as others in flight), none on the 10 ms one. Both selectors learn the same answers.
        var paper = new C3ReplicaSelector(new C3Options(), Frequency);
        var live = new LatencyAwareC3Selector(new C3Options(), Frequency);
        ReplicaState[] forPaper = [new("a"), new("b"), new("c")];
        ReplicaState[] forLive = [new("a"), new("b"), new("c")];
        foreach (var group in new[] { forPaper, forLive })
        {
            IReplicaSelector selector = ReferenceEquals(group, forPaper) ? paper : live;
            for (var i = 0; i < 3; i++)
            {
                group[i].Outstanding = i < 2 ? 7 : 0;
                selector.OnFeedback(group[i], i < 2 ? Feedback(1.2, 1, queue: 7) : Feedback(10.2, 10), 0);
                group[i].Outstanding = i < 2 ? 8 : 0;
            }
        }

        Assert.Equal(ReplicaChoice.Replica(2), paper.Choose(forPaper, 0));
        Assert.NotEqual(ReplicaChoice.Replica(2), live.Choose(forLive, 0));
    }

    [Fact]
    public void A_servers_count_of_calls_in_flight_does_not_charge_the_clients_own_calls_twice()
    {
        // Two equal replicas with 8 calls each in flight; a's last answer reported 7 others in flight (this client's
        // own), b's a moment when none were. Counted once, the loads are equal and the first replica is taken; added
        // to the outstanding count as the paper does, a looked twice as loaded and its cubic term 7x worse.
        var selector = new LatencyAwareC3Selector(new C3Options(), Frequency);
        ReplicaState[] group = [new("a"), new("b")];
        group[0].Outstanding = 7;
        selector.OnFeedback(group[0], Feedback(1, 1, queue: 7), 0);
        selector.OnFeedback(group[1], Feedback(1, 1, queue: 0), 0);
        group[0].Outstanding = 8;
        group[1].Outstanding = 8;

        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(group, 0));
        Assert.Equal(selector.Score(group[0], 9, 1, 0), selector.Score(group[1], 9, 1, 0), 9);

        // Other clients' calls, which the server sees and this client does not, still count.
        group[1].Outstanding = 2;
        selector.OnFeedback(group[1], Feedback(1, 1, queue: 30), 0);
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(group, 0));
    }

    [Fact]
    public void Herding_onto_one_of_two_equal_replicas_is_braked_by_the_load_term()
    {
        var selector = new LatencyAwareC3Selector(new C3Options(), Frequency);
        ReplicaState[] group = [new("a"), new("b")];
        selector.OnFeedback(group[0], Feedback(1, 1), 0);
        selector.OnFeedback(group[1], Feedback(1.3, 1.3), 0);

        // a is a little faster, but once it holds far more than b the cubic load term sends the next call to b.
        group[0].Outstanding = 12;
        group[1].Outstanding = 2;
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(group, 0));
        group[0].Outstanding = 2;
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(group, 0));
    }

    [Fact]
    public void A_replica_judged_on_a_cold_start_is_tried_again_and_one_good_answer_restores_it()
    {
        var selector = new LatencyAwareC3Selector(new C3Options(), Frequency);
        ReplicaState[] group = [new("a"), new("b")];

        // a's first answer was slow (a cold connection); b keeps answering in 1 ms with one call in flight.
        selector.OnFeedback(group[0], Feedback(400, 5), 0);
        var now = 0.0;
        var firstRetry = -1.0;
        for (; now < 10 && firstRetry < 0; now += 0.01)
        {
            selector.OnFeedback(group[1], Feedback(1, 1), At(now));
            if (selector.Choose(group, At(now)) == ReplicaChoice.Replica(0))
            {
                firstRetry = now;
            }
        }

        // Without ageing a would wait forever (it is never chosen, so never heard); with a half-life of 0.5 s its
        // score of ~400 ms falls under b's ~1 ms in about 9 half-lives.
        Assert.InRange(firstRetry, 3, 6);

        // The retry answers in 1 ms: after a quiet spell that long the old estimate keeps almost no weight.
        selector.OnFeedback(group[0], Feedback(1, 1), At(now));
        Assert.InRange(selector.Score(group[0], 1, 1, At(now)), 0, 3);
    }

    [Fact]
    public void A_request_is_never_held_back_even_when_nothing_answers()
    {
        // The paper's rate limits put requests in a backlog that grpc-dotnet re-picks in no order; calls waited there
        // until their deadline (issue 35). The default c3 always names a replica while one is up.
        var selector = new LatencyAwareC3Selector(new C3Options(), Frequency);
        ReplicaState[] group = [new("a"), new("b"), new("c")];
        for (var i = 0; i < 10_000; i++)
        {
            var choice = selector.Choose(group, At(i * 1e-5));
            Assert.Equal(ReplicaChoiceKind.Replica, choice.Kind);
            group[choice.Index].Outstanding++;
            selector.OnSent(group[choice.Index], At(i * 1e-5));
            if (i % 7 == 0)
            {
                group[choice.Index].Outstanding--;
                selector.OnFeedback(group[choice.Index], new ReplicaFeedback(TimeSpan.FromSeconds(10), 0, TimeSpan.Zero, failed: true), At(i * 1e-5));
            }
        }

        // Spread across the group, not piled on one replica: no replica holds more than half the calls in flight.
        Assert.All(group, r => Assert.True(r.Outstanding < group.Sum(g => g.Outstanding) / 2, $"{r.Id} holds {r.Outstanding}"));
    }
    [Fact]
    public void A_host_pause_felt_by_every_replica_does_not_move_traffic_to_the_slow_one()
    {
        // Issue 35's configuration A in virtual time: 16 closed-loop callers over replicas of 1, 1 and 10 ms. At 1 s
        // the host pauses for 60 ms: every call in flight comes back late, the fast replicas' estimates jump 1 ms ->
        // ~60 ms while the idle slow one keeps its 10 ms.
        var run = PausedClosedLoop(new LatencyAwareC3Selector(new C3Options(), Frequency));

        // In the second after the pause the slow replica gets no more than its usual retries, and neither fast
        // replica is left idle on its inflated estimate.
        Assert.True(run.SlowShareAfterPause < 0.03, $"slow replica got {run.SlowShareAfterPause:P1} of the calls after the pause");
        Assert.All(run.FastSharesAfterPause, share => Assert.True(share > 0.3, $"a fast replica got {share:P1} after the pause"));
    }

    [Fact]
    public void A_fast_replica_whose_estimate_is_stale_from_a_pause_gets_calls_again_within_100_ms()
    {
        // A deterministic trace of the failure: both fast replicas answer late in a pause, then only b is chosen and
        // answers fast again; a, idle, still holds its late answer. The others' level around a's answer was high and
        // has fallen, so a's estimate is taken back to what it was before; the slow replica stays last.
        var selector = new LatencyAwareC3Selector(new C3Options(), Frequency);
        ReplicaState[] group = [new("a"), new("b"), new("slow")];
        var t = 0.0;
        for (; t < 1; t += 0.001)
        {
            selector.OnFeedback(group[0], Feedback(1.1, 1), At(t));
            selector.OnFeedback(group[1], Feedback(1.1, 1), At(t));
            selector.OnFeedback(group[2], Feedback(10.1, 10), At(t));
            selector.Choose(group, At(t));
        }

        selector.OnFeedback(group[0], Feedback(61, 1), At(t));
        selector.Choose(group, At(t));
        for (var i = 0; i < 8; i++)
        {
            selector.OnFeedback(group[1], Feedback(61, 1), At(t + 0.0001));
            selector.Choose(group, At(t + 0.0001));
        }

        // b is back to 1 ms and holds the calls; a has nothing outstanding.
        var recovered = -1.0;
        var slowPicks = 0;
        group[1].Outstanding = 8;
        for (var now = t + 0.001; now < t + 0.1 && recovered < 0; now += 0.001)
        {
            selector.OnFeedback(group[1], Feedback(1.1, 1), At(now));
            var choice = selector.Choose(group, At(now));
            slowPicks += choice == ReplicaChoice.Replica(2) ? 1 : 0;
            recovered = choice == ReplicaChoice.Replica(0) ? now - t : -1;
        }

        Assert.InRange(recovered, 0, 0.1);
        Assert.Equal(0, slowPicks);
    }

    [Fact]
    public void A_replica_slow_on_its_own_is_not_excused_when_the_others_level_wavers()
    {
        // The slow replica's answers did not rise (it is slow, not paused); a blip on the others around its answer must
        // not make it look faster than its own estimate.
        var selector = new LatencyAwareC3Selector(new C3Options(), Frequency);
        ReplicaState[] group = [new("a"), new("slow")];
        for (var t = 0.0; t < 0.5; t += 0.001)
        {
            selector.OnFeedback(group[0], Feedback(1.1, 1), At(t));
            selector.OnFeedback(group[1], Feedback(10.1, 10), At(t));
            selector.Choose(group, At(t));
        }

        selector.OnFeedback(group[0], Feedback(30, 1), At(0.5));
        selector.Choose(group, At(0.5));
        for (var t = 0.501; t < 0.6; t += 0.001)
        {
            selector.OnFeedback(group[0], Feedback(1.1, 1), At(t));
        }

        Assert.True(selector.Score(group[1], 1, 1, At(0.6)) >= 10, "the slow replica was excused by the others' blip");
    }

    private static (double SlowShareAfterPause, double[] FastSharesAfterPause) PausedClosedLoop(IReplicaSelector selector)
    {
        double[] serviceMs = [1, 1, 10];
        const double PauseStart = 1.0;
        const double PauseEnd = 1.06;
        ReplicaState[] group = [new("a"), new("b"), new("slow")];
        var inFlight = new PriorityQueue<(int Replica, double Start), double>();
        var picksAfter = new int[3];
        void Send(double now, int order)
        {
            var choice = selector.Choose(group, At(now));
            var replica = choice.Index;
            group[replica].Outstanding++;
            selector.OnSent(group[replica], At(now));
            var done = now + (serviceMs[replica] / 1000);
            if (done >= PauseStart && now < PauseEnd)
            {
                // Held by the pause; the late answers come back together, in caller order.
                done = Math.Max(done, PauseEnd + (order * 1e-6));
            }

            inFlight.Enqueue((replica, now), done);
            if (now >= PauseEnd && now < PauseEnd + 1)
            {
                picksAfter[replica]++;
            }
        }

        for (var caller = 0; caller < 16; caller++)
        {
            Send(0, caller);
        }

        var order = 0;
        while (inFlight.TryDequeue(out var call, out var done) && done < 3)
        {
            group[call.Replica].Outstanding--;
            var response = (done - call.Start) * 1000;
            selector.OnFeedback(group[call.Replica], Feedback(response, Math.Min(serviceMs[call.Replica], response), group[call.Replica].Outstanding), At(done));
            Send(done, order++ % 16);
        }

        var total = (double)picksAfter.Sum();
        return (picksAfter[2] / total, [picksAfter[0] / total, picksAfter[1] / total]);
    }
}
