// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Testing;

/// <summary>
/// What every <see cref="IReplicaSelector"/> must do, whatever its ranking: pick only replicas in the span that are up,
/// fail with a reason for an empty or all-down group, never ask for the backlog (only C3 does), take feedback for a
/// replica it never saw, spread identical load, and not allocate in steady state. Each selector's tests inherit this.
/// </summary>
public abstract class ReplicaSelectorConformanceTests
{
    /// <summary>Timestamps per second used by the tests: timestamps are milliseconds.</summary>
    protected const long Frequency = 1000;

    /// <summary>Random groups, replicas going up and down, random feedback: every pick is an up replica inside the span.</summary>
    [Fact]
    public void Choose_RandomTraffic_PicksOnlyUpReplicasWithinTheSpan()
    {
        var selector = CreateSelector();
        var replicas = Replicas(6);
        var random = new Random(5);
        var inFlight = new List<ReplicaState>();
        for (var now = 0L; now < 3000; now++)
        {
            if (random.Next(20) == 0)
            {
                var toggled = replicas[random.Next(replicas.Length)];
                toggled.IsDown = !toggled.IsDown;
            }

            var length = random.Next(1, replicas.Length + 1);
            var group = replicas.AsSpan(0, length);
            var choice = selector.Choose(group, now);
            if (AllDown(group))
            {
                Assert.Equal(ReplicaChoiceKind.Fail, choice.Kind);
            }
            else if (MayBacklog && choice.Kind == ReplicaChoiceKind.Backlog)
            {
                // Rate-limited selectors hold the request back; the engine retries it later.
            }
            else
            {
                Assert.Equal(ReplicaChoiceKind.Replica, choice.Kind);
                Assert.InRange(choice.Index, 0, length - 1);
                Assert.False(group[choice.Index].IsDown);
                var replica = group[choice.Index];
                replica.Outstanding++;
                selector.OnSent(replica, now);
                inFlight.Add(replica);
            }

            while (inFlight.Count > 0 && random.Next(3) != 0)
            {
                var at = random.Next(inFlight.Count);
                var done = inFlight[at];
                inFlight.RemoveAt(at);
                Respond(selector, done, Feedback(random.Next(1, 50) / 1000.0, failed: random.Next(10) == 0), now);
            }
        }
    }

    /// <summary>An empty group fails with a reason that says so.</summary>
    [Fact]
    public void Choose_EmptyGroup_FailsWithReason()
    {
        var choice = CreateSelector().Choose([], 0);

        Assert.Equal(ReplicaChoiceKind.Fail, choice.Kind);
        Assert.Contains("empty", choice.Reason, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>A group whose replicas are all down fails with a reason that says so.</summary>
    [Fact]
    public void Choose_AllDown_FailsWithReason()
    {
        var replicas = Replicas(3);
        Array.ForEach(replicas, r => r.IsDown = true);

        var choice = CreateSelector().Choose(replicas, 0);

        Assert.Equal(ReplicaChoiceKind.Fail, choice.Kind);
        Assert.Contains("down", choice.Reason, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>Replicas that are down are never picked.</summary>
    [Fact]
    public void Choose_SomeDown_SkipsThem()
    {
        var selector = CreateSelector();
        var replicas = Replicas(4);
        replicas[0].IsDown = true;
        replicas[2].IsDown = true;
        replicas[3].IsDown = true;

        for (var now = 0L; now < 300; now += 3)
        {
            var index = Send(selector, replicas, now);
            Assert.Equal(1, index);
            Respond(selector, replicas[index], Feedback(0.002 + (now % 7 / 1000.0)), now + 1);
        }
    }

    /// <summary>Feedback for replicas the selector never saw, or that carry another selector's state, does no harm.</summary>
    [Fact]
    public void OnFeedback_UnknownReplica_IsHandledSafely()
    {
        var selector = CreateSelector();
        var replicas = Replicas(3);
        var stranger = new ReplicaState("stranger");
        var foreign = new ReplicaState("foreign") { SelectorState = "state of some other selector" };

        selector.OnSent(stranger, 0);
        selector.OnFeedback(stranger, Feedback(0.01), 1);
        selector.OnFeedback(new ReplicaState("failed"), Feedback(0.01, failed: true), 2);
        selector.OnFeedback(new ReplicaState("negative"), new ReplicaFeedback(TimeSpan.FromTicks(-5), -1, TimeSpan.Zero), 3);
        selector.OnFeedback(foreign, Feedback(0.02), 4);

        ReplicaState[] group = [replicas[0], stranger, foreign, replicas[1], replicas[2]];
        for (var now = 10L; now < 400; now += 5)
        {
            var index = Send(selector, group, now);
            Assert.InRange(index, 0, group.Length - 1);
            Respond(selector, group[index], Feedback(0.01), now + 2);
        }
    }

    /// <summary>Identical replicas get load as <see cref="VerifySpreadOverIdenticalReplicas"/> says.</summary>
    [Fact]
    public void Choose_IdenticalReplicasWithFeedback_SpreadsAsTheSelectorShould()
    {
        var selector = CreateSelector();
        var replicas = Replicas(5);
        replicas[3].IsDown = true;
        var counts = new int[replicas.Length];
        for (var now = 0L; now < 2000; now += 5)
        {
            var index = Send(selector, replicas, now);
            counts[index]++;
            Respond(selector, replicas[index], Feedback(0.004), now + 4);
        }

        Assert.Equal(0, counts[3]);
        VerifySpreadOverIdenticalReplicas(counts, replicas);
    }

    /// <summary>Choosing and taking feedback allocate nothing in steady state.</summary>
    [Fact]
    public void ChooseAndFeedback_SteadyState_DoesNotAllocate()
    {
        var selector = CreateSelector();
        var replicas = Replicas(5);
        replicas[1].IsDown = true;
        var now = 0L;
        RunCycles(selector, replicas, ref now, 500);

        var before = GC.GetAllocatedBytesForCurrentThread();
        RunCycles(selector, replicas, ref now, 2000);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
    }

    /// <summary>The factory has the expected name, creates the selector type, and checks the timestamp frequency.</summary>
    [Fact]
    public void Factory_HasTheConfiguredName_AndCreatesAWorkingSelector()
    {
        var factory = CreateFactory();
        var selector = factory.Create(Frequency);

        Assert.Equal(ExpectedName, factory.Name);
        Assert.Equal(CreateSelector().GetType(), selector.GetType());
        Assert.Equal(ReplicaChoice.Replica(0), selector.Choose(Replicas(1), 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => factory.Create(0));
    }

    /// <summary>Gets the name the factory must report.</summary>
    protected abstract string ExpectedName { get; }

    /// <summary>Gets a value indicating whether the selector may answer <see cref="ReplicaChoice.Backlog"/> (C3 does).</summary>
    protected virtual bool MayBacklog => false;

    /// <summary>Creates the selector under test, for a clock of <see cref="Frequency"/> timestamps per second.</summary>
    /// <returns>A new selector.</returns>
    protected abstract IReplicaSelector CreateSelector();

    /// <summary>Creates the selector's factory.</summary>
    /// <returns>The factory.</returns>
    protected abstract ReplicaSelectorFactory CreateFactory();

    /// <summary>
    /// Checks the picks over identical replicas (all answer alike, one is down). By default every replica that is up
    /// must have been picked at least once; selectors that keep a fixed order override this.
    /// </summary>
    /// <param name="counts">Picks per replica.</param>
    /// <param name="replicas">The replicas.</param>
    protected virtual void VerifySpreadOverIdenticalReplicas(int[] counts, ReplicaState[] replicas)
    {
        ArgumentNullException.ThrowIfNull(counts);
        ArgumentNullException.ThrowIfNull(replicas);
        for (var i = 0; i < replicas.Length; i++)
        {
            if (!replicas[i].IsDown)
            {
                Assert.True(counts[i] > 0, $"Replica {i} was never picked: [{string.Join(", ", counts)}].");
            }
        }
    }

    /// <summary>Creates replicas named <c>r0</c>, <c>r1</c>, ...</summary>
    /// <param name="count">How many.</param>
    /// <returns>The replicas.</returns>
    protected static ReplicaState[] Replicas(int count)
    {
        var replicas = new ReplicaState[count];
        for (var i = 0; i < count; i++)
        {
            replicas[i] = new ReplicaState($"r{i}");
        }

        return replicas;
    }

    /// <summary>Feedback of a response that took <paramref name="responseSeconds"/>, half of it service time.</summary>
    /// <param name="responseSeconds">The response time.</param>
    /// <param name="failed">Whether the call failed.</param>
    /// <returns>The feedback.</returns>
    protected static ReplicaFeedback Feedback(double responseSeconds, bool failed = false) =>
        new(TimeSpan.FromSeconds(responseSeconds), 0, TimeSpan.FromSeconds(responseSeconds / 2), 0, failed);

    /// <summary>Does what the engine does on a send: choose, count the request as outstanding, report it.</summary>
    /// <param name="selector">The selector.</param>
    /// <param name="replicas">The group.</param>
    /// <param name="now">The timestamp.</param>
    /// <returns>The index picked.</returns>
    protected static int Send(IReplicaSelector selector, ReplicaState[] replicas, long now)
    {
        ArgumentNullException.ThrowIfNull(selector);
        var choice = selector.Choose(replicas, now);
        Assert.Equal(ReplicaChoiceKind.Replica, choice.Kind);
        var replica = replicas[choice.Index];
        replica.Outstanding++;
        selector.OnSent(replica, now);
        return choice.Index;
    }

    /// <summary>Does what the engine does on a response: uncount the request, then report the feedback.</summary>
    /// <param name="selector">The selector.</param>
    /// <param name="replica">The replica that answered.</param>
    /// <param name="feedback">Its feedback.</param>
    /// <param name="now">The timestamp.</param>
    protected static void Respond(IReplicaSelector selector, ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        ArgumentNullException.ThrowIfNull(selector);
        ArgumentNullException.ThrowIfNull(replica);
        replica.Outstanding--;
        selector.OnFeedback(replica, feedback, now);
    }

    private static void RunCycles(IReplicaSelector selector, ReplicaState[] replicas, ref long now, int cycles)
    {
        for (var i = 0; i < cycles; i++)
        {
            var choice = selector.Choose(replicas, now);
            var replica = replicas[choice.Index];
            replica.Outstanding++;
            selector.OnSent(replica, now);
            now += 3;
            replica.Outstanding--;
            selector.OnFeedback(replica, new ReplicaFeedback(TimeSpan.FromMilliseconds(1 + (i % 5)), i % 3, TimeSpan.FromMilliseconds(1)), now);
        }
    }

    private static bool AllDown(ReadOnlySpan<ReplicaState> group)
    {
        foreach (var replica in group)
        {
            if (!replica.IsDown)
            {
                return false;
            }
        }

        return true;
    }
}
