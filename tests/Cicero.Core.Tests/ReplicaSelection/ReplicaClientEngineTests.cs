// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;
using Cicero.Time;

namespace Cicero.Tests.ReplicaSelection;

public class ReplicaClientEngineTests
{
    private static readonly long Ms = TimeSpan.TicksPerMillisecond;
    private readonly VirtualTimeProvider _clock = new();

    [Fact]
    public void Route_AllOverRate_QueuesInFifoOrder_AndTheRetryTimerReleasesThemAtTheSelectorsTime()
    {
        var host = new Host(_clock);
        var engine = host.Create(new TokenSelector(10 * Ms), replicas: 2, ReplicaGroupLayouts.Windows(2, 2));

        engine.Route("r1", 0, Now);
        engine.Route("r2", 0, Now);
        engine.Route("r3", 0, Now);
        engine.Route("r4", 0, Now);

        Assert.Equal(["r1->0", "r2->1"], host.Log);
        Assert.Equal(2, engine.BacklogLength(0));
        Assert.Equal(2, engine.Backlogged);
        _clock.Advance(TimeSpan.FromMilliseconds(9));
        Assert.Equal(2, host.Log.Count);
        _clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.Equal(["r1->0", "r2->1", "r3->0", "r4->1"], host.Log);
        Assert.Equal(0, engine.BacklogLength(0));
    }

    [Fact]
    public void Route_BehindAWaitingRequest_Queues_EvenWhenTheSelectorCouldServeIt()
    {
        var host = new Host(_clock);
        var selector = new TokenSelector(10 * Ms);
        var engine = host.Create(selector, replicas: 1, [[0]]);
        engine.Route("r1", 0, Now);
        engine.Route("r2", 0, Now);

        // The replica's token is back, but r2 waits: r3 must not overtake it.
        TokenSelector.Refill(engine.Replicas[0]);
        engine.Route("r3", 0, Now);

        Assert.Equal(["r1->0"], host.Log);
        Assert.Equal(2, engine.BacklogLength(0));
        _clock.Advance(TimeSpan.FromMilliseconds(10));
        Assert.Equal(["r1->0", "r2->0"], host.Log);
        _clock.Advance(TimeSpan.FromMilliseconds(10));
        Assert.Equal(["r1->0", "r2->0", "r3->0"], host.Log);
    }

    [Fact]
    public void Complete_RetriesTheGroupsHoldingTheReplica_FirstThoseItLeads()
    {
        var host = new Host(_clock);
        var selector = new TokenSelector(long.MaxValue / 4);
        var engine = host.Create(selector, replicas: 3, ReplicaGroupLayouts.Windows(3, 2));
        engine.Route("a", 0, Now);
        engine.Route("b", 0, Now);
        engine.Route("c", 2, Now);
        engine.Route("g0", 0, Now);
        engine.Route("g1", 1, Now);
        Assert.Equal(["a->0", "b->1", "c->2"], host.Log);

        // Replica 1 leads group 1 and is second in group 0: its response retries group 1 first, which takes its token.
        TokenSelector.Refill(engine.Replicas[1]);
        engine.Complete(1, new ReplicaFeedback(TimeSpan.FromMilliseconds(1), 0, TimeSpan.FromMilliseconds(1)), Now);

        Assert.Equal(["a->0", "b->1", "c->2", "g1->1"], host.Log);
        Assert.Equal(1, engine.BacklogLength(0));
        Assert.Equal(0, engine.BacklogLength(1));
        Assert.Equal(1, engine.Replicas[1].Outstanding);
    }

    [Fact]
    public void OnUnavailable_BacksOffFrom250msDoublingTo5s_AndAResponseResetsIt()
    {
        var host = new Host(_clock);
        var engine = host.Create(new TokenSelector(0), replicas: 1, [[0]]);
        var failed = new ReplicaFeedback(TimeSpan.Zero, 0, TimeSpan.Zero, failed: true);
        var downFor = new List<long>();
        for (var i = 0; i < 7; i++)
        {
            var start = Now;
            engine.OnUnavailable(0, failed, Now);
            Assert.True(engine.Replicas[0].IsDown);
            while (engine.Replicas[0].IsDown)
            {
                _clock.TryRunNext();
            }

            downFor.Add((Now - start) / Ms);
        }

        Assert.Equal([250L, 500, 1000, 2000, 4000, 5000, 5000], downFor);
        engine.Complete(0, new ReplicaFeedback(TimeSpan.FromMilliseconds(1), 0, TimeSpan.FromMilliseconds(1)), Now);
        var again = Now;
        engine.OnUnavailable(0, failed, Now);
        _clock.Advance(TimeSpan.FromMilliseconds(250));
        Assert.False(engine.Replicas[0].IsDown);
        Assert.Equal(250 * Ms, Now - again);
    }

    [Fact]
    public void LocalReplica_TakesItsGroupsRequests_WithoutTheSelectorOrTheBacklog_WhileItIsUp()
    {
        var host = new Host(_clock);
        var selector = new TokenSelector(long.MaxValue / 4);
        var engine = host.Create(selector, replicas: 3, ReplicaGroupLayouts.Windows(3, 2));
        engine.LocalReplicaId = engine.Replicas[2].Id;

        engine.Route("g1", 1, Now);
        engine.Route("g2", 2, Now);
        engine.Route("g0", 0, Now);
        engine.SetDown(2, true, Now);
        engine.Route("g1-down", 1, Now);

        Assert.Equal(["g1->2 local", "g2->2 local", "g0->0", "g1-down->1"], host.Log);
        Assert.Equal(0, engine.Replicas[2].Outstanding);
        Assert.Equal(0, selector.Chosen[2]);
    }

    [Fact]
    public void Backlog_OfASelectorThatCannotTellWhen_WaitsForAnOutstandingResponse_ElseFails()
    {
        var host = new Host(_clock);
        var selector = new GateSelector();
        var engine = host.Create(selector, replicas: 1, [[0]]);

        engine.Route("alone", 0, Now);
        Assert.Equal(["alone failed"], host.Log);

        engine.OnSent(0, Now);
        engine.Route("behind-a-call", 0, Now);
        Assert.Single(host.Log);
        Assert.Equal(1, engine.BacklogLength(0));
        selector.Open = true;
        engine.Complete(0, new ReplicaFeedback(TimeSpan.FromMilliseconds(1), 0, TimeSpan.FromMilliseconds(1)), Now);
        Assert.Equal(["alone failed", "behind-a-call->0"], host.Log);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void RandomTraffic_EveryRequestLeavesOnce_InFifoOrderPerGroup_AndOutstandingMatchesTheCalls(int seed)
    {
        var random = new Random(seed);
        var replicas = random.Next(1, 9);
        var replication = random.Next(1, replicas + 1);
        var host = new Host(_clock);
        var engine = host.Create(new TokenSelector(random.Next(1, 20) * Ms), replicas, ReplicaGroupLayouts.Windows(replicas, replication));
        var inFlight = new List<int>();
        var routed = new List<string>[replicas];
        for (var g = 0; g < replicas; g++)
        {
            routed[g] = [];
        }

        for (var step = 0; step < 2000; step++)
        {
            var roll = random.Next(10);
            if (roll < 5)
            {
                var group = random.Next(replicas);
                var id = group + ":" + step;
                routed[group].Add(id);
                engine.Route(id, group, Now);
            }
            else if (roll < 8 && inFlight.Count > 0)
            {
                var k = random.Next(inFlight.Count);
                var replica = inFlight[k];
                inFlight.RemoveAt(k);
                var failed = random.Next(4) == 0;
                if (failed)
                {
                    engine.OnUnavailable(replica, new ReplicaFeedback(TimeSpan.Zero, 0, TimeSpan.Zero, failed: true), Now);
                }
                else
                {
                    engine.Complete(replica, new ReplicaFeedback(TimeSpan.FromMilliseconds(1), random.Next(5), TimeSpan.FromMilliseconds(1)), Now);
                }
            }
            else
            {
                _clock.Advance(TimeSpan.FromMilliseconds(random.Next(1, 30)));
            }

            inFlight.AddRange(host.TakeDispatched());
            for (var r = 0; r < replicas; r++)
            {
                Assert.Equal(inFlight.Count(x => x == r), engine.Replicas[r].Outstanding);
            }
        }

        // Drain: answer everything and let every timer run; nothing may stay behind.
        while (inFlight.Count > 0 || _clock.TryRunNext())
        {
            foreach (var replica in inFlight)
            {
                engine.Complete(replica, new ReplicaFeedback(TimeSpan.FromMilliseconds(1), 0, TimeSpan.FromMilliseconds(1)), Now);
            }

            inFlight.Clear();
            inFlight.AddRange(host.TakeDispatched());
        }

        for (var g = 0; g < replicas; g++)
        {
            Assert.Equal(0, engine.BacklogLength(g));
            Assert.Equal(routed[g], host.Left.Where(id => id.StartsWith(g + ":", StringComparison.Ordinal)));
        }
    }

    private long Now => _clock.GetTimestamp();

    /// <summary>Hosts the engine on the virtual clock and records what leaves it.</summary>
    private sealed class Host(VirtualTimeProvider clock) : IReplicaClientHost<string>
    {
        private readonly List<int> _dispatched = [];
        private ReplicaClientEngine<string>? _engine;

        public List<string> Log { get; } = [];

        /// <summary>Gets the requests that left, dispatched or failed, in order.</summary>
        public List<string> Left { get; } = [];

        public ReplicaClientEngine<string> Create(IReplicaSelector selector, int replicas, int[][] groups)
        {
            _engine = new ReplicaClientEngine<string>(selector, this, clock.TimestampFrequency);
            _engine.SetReplicas([.. Enumerable.Range(0, replicas).Select(i => new ReplicaState("r" + i))], groups);
            return _engine;
        }

        public int[] TakeDispatched()
        {
            var taken = _dispatched.ToArray();
            _dispatched.Clear();
            return taken;
        }

        public void Dispatch(string request, int replica, bool isLocal)
        {
            Log.Add(request + "->" + replica + (isLocal ? " local" : string.Empty));
            Left.Add(request);
            if (!isLocal)
            {
                // Sent at once: the replica counts it outstanding and the selector takes its token.
                _engine!.OnSent(replica, clock.GetTimestamp());
                _dispatched.Add(replica);
            }
        }

        public void Fail(string request, string reason)
        {
            Assert.False(string.IsNullOrEmpty(reason));
            Log.Add(request + " failed");
            Left.Add(request);
        }

        public void ScheduleRetry(int group, long due) => clock.ScheduleAt(due, _ => _engine!.OnRetryTimer(group, clock.GetTimestamp()), null);

        public void ScheduleBackoffEnd(int replica, long due) => clock.ScheduleAt(due, _ => _engine!.OnBackoffEnd(replica, clock.GetTimestamp()), null);
    }

    /// <summary>One request per replica per period; the first replica with its token, else the backlog.</summary>
    private sealed class TokenSelector(long period) : IReplicaSelector, IBackpressureAware
    {
        public int[] Chosen { get; } = new int[16];

        public static void Refill(ReplicaState replica) => replica.SelectorState = 0L;

        public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
        {
            var alive = false;
            for (var i = 0; i < replicas.Length; i++)
            {
                if (!replicas[i].IsDown)
                {
                    alive = true;
                    if (Next(replicas[i]) <= now)
                    {
                        Chosen[int.Parse(replicas[i].Id.AsSpan(1), System.Globalization.CultureInfo.InvariantCulture)]++;
                        return ReplicaChoice.Replica(i);
                    }
                }
            }

            return alive ? ReplicaChoice.Backlog : ReplicaChoice.Fail("All replicas are down.");
        }

        public void OnSent(ReplicaState replica, long now) => replica.SelectorState = now + period;

        public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
        {
        }

        public long? TimeUntilAvailable(ReadOnlySpan<ReplicaState> replicas, long now)
        {
            long? best = null;
            foreach (var replica in replicas)
            {
                if (!replica.IsDown)
                {
                    best = Math.Min(best ?? long.MaxValue, Math.Max(0, Next(replica) - now));
                }
            }

            return best;
        }

        private static long Next(ReplicaState replica) => replica.SelectorState is long next ? next : 0;
    }

    /// <summary>Holds every request back until opened, and cannot tell when that will be.</summary>
    private sealed class GateSelector : IReplicaSelector
    {
        public bool Open { get; set; }

        public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now) => Open ? ReplicaChoice.Replica(0) : ReplicaChoice.Backlog;

        public void OnSent(ReplicaState replica, long now)
        {
        }

        public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
        {
        }
    }
}
