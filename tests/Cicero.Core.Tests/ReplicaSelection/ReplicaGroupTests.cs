// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;
using Cicero.Time;

namespace Cicero.Tests.ReplicaSelection;

public class ReplicaGroupTests
{
    private readonly VirtualTimeProvider _clock = new();

    [Fact]
    public async Task PickAsync_WithinRate_CompletesAtOnce_CountsOutstanding_AndFeedbackReachesSelector()
    {
        var selector = new OneTokenPerReplicaSelector(TimeSpan.FromMilliseconds(10));
        using var group = Create(selector);
        group.SetReplicas(["a", "b"]);

        var pick = await group.PickAsync();

        Assert.True(pick.Succeeded);
        Assert.Equal("a", pick.Replica!.Id);
        Assert.Equal(1, pick.Replica.Outstanding);
        group.Complete(pick.Replica, new ReplicaFeedback(TimeSpan.FromMilliseconds(3), 2, TimeSpan.FromMilliseconds(1)));
        Assert.Equal(0, pick.Replica.Outstanding);
        Assert.Equal(["a"], selector.FeedbackFor);
    }

    [Fact]
    public async Task PickAsync_AllOverRate_WaitsInFifoBacklog_UntilTheSelectorSaysAReplicaIsAvailable()
    {
        var selector = new OneTokenPerReplicaSelector(TimeSpan.FromMilliseconds(10));
        using var group = Create(selector);
        group.SetReplicas(["a", "b"]);
        _ = await group.PickAsync();
        _ = await group.PickAsync();

        var first = group.PickAsync().AsTask();
        var second = group.PickAsync().AsTask();
        Assert.Equal(2, group.BacklogLength);

        _clock.Advance(TimeSpan.FromMilliseconds(10));

        Assert.True(first.IsCompletedSuccessfully);
        Assert.True(second.IsCompletedSuccessfully);
        Assert.Equal("a", (await first).Replica!.Id);
        Assert.Equal("b", (await second).Replica!.Id);
        Assert.Equal(0, group.BacklogLength);
    }

    [Fact]
    public async Task PickAsync_EmptyGroup_AllDown_OrBacklogFull_FailsWithReason()
    {
        var selector = new OneTokenPerReplicaSelector(TimeSpan.FromSeconds(10));
        using var group = Create(selector, new ReplicaGroupOptions { MaxBacklog = 1, RunContinuationsAsynchronously = false });

        Assert.Contains("empty", (await group.PickAsync()).Failure, StringComparison.Ordinal);

        group.SetReplicas(["a"]);
        group.SetDown("a", true);
        Assert.Contains("down", (await group.PickAsync()).Failure, StringComparison.Ordinal);

        group.SetDown("a", false);
        _ = await group.PickAsync();
        _ = group.PickAsync().AsTask();
        Assert.Contains("backlog is full", (await group.PickAsync()).Failure, StringComparison.Ordinal);
    }

    [Fact]
    public async Task PickAsync_Cancelled_LeavesTheBacklog()
    {
        using var group = Create(new OneTokenPerReplicaSelector(TimeSpan.FromSeconds(10)));
        group.SetReplicas(["a"]);
        _ = await group.PickAsync();
        using var cts = new CancellationTokenSource();
        var waiting = group.PickAsync(cts.Token).AsTask();

        cts.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting);
        Assert.Equal(0, group.BacklogLength);
    }

    [Fact]
    public async Task PickAsync_ServeLocally_BypassesSelectorAndBacklog_WhileLocalReplicaIsUp()
    {
        var selector = new OneTokenPerReplicaSelector(TimeSpan.FromSeconds(10));
        using var group = Create(selector, new ReplicaGroupOptions { LocalReplicaId = "self", ServeLocally = true, RunContinuationsAsynchronously = false });
        group.SetReplicas(["other", "self"]);

        for (var i = 0; i < 5; i++)
        {
            var pick = await group.PickAsync();
            Assert.True(pick.IsLocal);
            Assert.Equal("self", pick.Replica!.Id);
        }

        group.SetDown("self", true);
        var remote = await group.PickAsync();
        Assert.False(remote.IsLocal);
        Assert.Equal("other", remote.Replica!.Id);
    }

    [Fact]
    public async Task SetReplicas_KeepsWhatWasLearnedAboutReplicasThatStay()
    {
        using var group = Create(new OneTokenPerReplicaSelector(TimeSpan.FromMilliseconds(10)));
        group.SetReplicas(["a", "b"]);
        var a = (await group.PickAsync()).Replica!;

        group.SetReplicas(["c", "a"]);

        Assert.Same(a, group.Replicas[1]);
        Assert.Equal(1, a.Outstanding);
        Assert.Equal(["c", "a"], group.Replicas.Select(r => r.Id));
    }

    [Fact]
    public async Task SetReplicas_SharedStates_CountOutstandingPerServerAcrossGroups()
    {
        var selector = new OneTokenPerReplicaSelector(TimeSpan.FromMilliseconds(10));
        ReplicaState[] servers = [new("s0"), new("s1"), new("s2"), new("s3")];
        using var first = Create(selector);
        using var second = Create(selector);
        first.SetReplicas([servers[0], servers[1], servers[2]]);
        second.SetReplicas([servers[1], servers[2], servers[3]]);

        var a = await first.PickAsync();
        var b = await first.PickAsync();
        var c = await second.PickAsync();

        // s1 took its one token through the first group, so the second group sees it as used and moves on to s2.
        Assert.Equal(["s0", "s1", "s2"], new[] { a.Replica!.Id, b.Replica!.Id, c.Replica!.Id });
        Assert.Equal(1, servers[1].Outstanding);
    }

    [Theory]
    [InlineData(true, "ABABAB")]
    [InlineData(false, "AAABBB")]
    public async Task Backlogs_OfGroupsSharingAServer_AreServedInTurn_WithACoordinator(bool coordinated, string expected)
    {
        var selector = new OneTokenPerReplicaSelector(TimeSpan.FromMilliseconds(10));
        var coordinator = coordinated ? new ReplicaGroupCoordinator() : null;
        var server = new ReplicaState("shared");
        using var a = new ReplicaGroup(selector, new ReplicaGroupOptions { RunContinuationsAsynchronously = false }, _clock, coordinator);
        using var b = new ReplicaGroup(selector, new ReplicaGroupOptions { RunContinuationsAsynchronously = false }, _clock, coordinator);
        a.SetReplicas([server]);
        b.SetReplicas([server]);
        _ = await a.PickAsync();
        var order = new List<char>();
        for (var i = 0; i < 3; i++)
        {
            _ = a.PickAsync().AsTask().ContinueWith(_ => order.Add('A'), TaskContinuationOptions.ExecuteSynchronously);
            _ = b.PickAsync().AsTask().ContinueWith(_ => order.Add('B'), TaskContinuationOptions.ExecuteSynchronously);
        }

        // One token every 10 ms for the shared server: six releases.
        for (var i = 0; i < 6; i++)
        {
            _clock.Advance(TimeSpan.FromMilliseconds(10));
        }

        Assert.Equal(expected, new string([.. order]));
        Assert.Equal(coordinated ? 2 : 0, coordinator?.GroupCount ?? 0);
    }

    [Fact]
    public void Options_ServeLocallyWithoutLocalId_Throws()
    {
        Assert.Throws<ArgumentException>(() => Create(new OneTokenPerReplicaSelector(TimeSpan.FromSeconds(1)), new ReplicaGroupOptions { ServeLocally = true }));
    }

    private ReplicaGroup Create(IReplicaSelector selector, ReplicaGroupOptions? options = null) =>
        new(selector, options ?? new ReplicaGroupOptions { RunContinuationsAsynchronously = false }, _clock);

    /// <summary>Each replica may take one request per period; picks the first replica with its token, else the backlog.</summary>
    private sealed class OneTokenPerReplicaSelector(TimeSpan period) : IReplicaSelector, IBackpressureAware
    {
        private readonly long _period = period.Ticks;

        public List<string> FeedbackFor { get; } = [];

        public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
        {
            if (replicas.IsEmpty)
            {
                return ReplicaChoice.Fail("The replica group is empty.");
            }

            var alive = false;
            for (var i = 0; i < replicas.Length; i++)
            {
                if (replicas[i].IsDown)
                {
                    continue;
                }

                alive = true;
                if (NextToken(replicas[i]) <= now)
                {
                    return ReplicaChoice.Replica(i);
                }
            }

            return alive ? ReplicaChoice.Backlog : ReplicaChoice.Fail("All replicas are down.");
        }

        public void OnSent(ReplicaState replica, long now) => replica.SelectorState = now + _period;

        public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => FeedbackFor.Add(replica.Id);

        public long? TimeUntilAvailable(ReadOnlySpan<ReplicaState> replicas, long now)
        {
            long? best = null;
            foreach (var replica in replicas)
            {
                var wait = Math.Max(0, NextToken(replica) - now);
                best = best is null ? wait : Math.Min(best.Value, wait);
            }

            return best;
        }

        private static long NextToken(ReplicaState replica) => replica.SelectorState is long next ? next : 0;
    }
}
