// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class LeastOutstandingSelectorTests : ReplicaSelectorConformanceTests
{
    protected override string ExpectedName => "least-outstanding";

    [Fact]
    public void Choose_PicksTheFewestOutstanding()
    {
        var selector = new LeastOutstandingSelector();
        var replicas = WithOutstanding(3, 1, 2);

        for (var i = 0; i < 5; i++)
        {
            Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas, i));
        }
    }

    [Fact]
    public void Choose_Ties_TakeTurns()
    {
        var selector = new LeastOutstandingSelector();
        var replicas = WithOutstanding(1, 0, 0, 5);

        var picks = new int[4];
        for (var i = 0; i < picks.Length; i++)
        {
            picks[i] = selector.Choose(replicas, i).Index;
        }

        Assert.Equal([1, 2, 1, 2], picks);
    }

    [Fact]
    public void Choose_FewestIsDown_PicksTheNextFewest()
    {
        var replicas = WithOutstanding(3, 0, 2);
        replicas[1].IsDown = true;

        Assert.Equal(ReplicaChoice.Replica(2), new LeastOutstandingSelector().Choose(replicas, 0));
    }

    [Fact]
    public void Choose_NoResponses_BalancesOutstandingCounts()
    {
        var selector = new LeastOutstandingSelector();
        var replicas = Replicas(3);

        for (var i = 0; i < 9; i++)
        {
            Send(selector, replicas, i);
        }

        Assert.All(replicas, r => Assert.Equal(3, r.Outstanding));
    }

    protected override IReplicaSelector CreateSelector() => new LeastOutstandingSelector();

    protected override ReplicaSelectorFactory CreateFactory() => LeastOutstandingSelector.CreateFactory();

    private static ReplicaState[] WithOutstanding(params int[] outstanding)
    {
        var replicas = Replicas(outstanding.Length);
        for (var i = 0; i < outstanding.Length; i++)
        {
            replicas[i].Outstanding = outstanding[i];
        }

        return replicas;
    }
}
