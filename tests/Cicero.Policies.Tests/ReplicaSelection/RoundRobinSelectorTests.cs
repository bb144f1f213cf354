// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class RoundRobinSelectorTests : ReplicaSelectorConformanceTests
{
    protected override string ExpectedName => "round-robin";

    [Fact]
    public void Choose_AllUp_CyclesInIndexOrder()
    {
        var selector = new RoundRobinSelector();
        var replicas = Replicas(3);

        Assert.Equal([0, 1, 2, 0, 1, 2, 0], Picks(selector, replicas, 7));
    }

    [Fact]
    public void Choose_OneDown_SkipsItAndResumesWhenItIsBack()
    {
        var selector = new RoundRobinSelector();
        var replicas = Replicas(3);
        replicas[1].IsDown = true;

        Assert.Equal([0, 2, 0, 2], Picks(selector, replicas, 4));

        replicas[1].IsDown = false;
        Assert.Equal([0, 1, 2], Picks(selector, replicas, 3));
    }

    [Fact]
    public void Choose_GroupShrinks_WrapsWithinTheNewSize()
    {
        var selector = new RoundRobinSelector();
        var replicas = Replicas(5);
        Picks(selector, replicas, 4);

        // The next position would be 4; in a group of 3 that wraps to 1.
        Assert.Equal(ReplicaChoice.Replica(1), selector.Choose(replicas.AsSpan(0, 3), 0));
    }

    protected override IReplicaSelector CreateSelector() => new RoundRobinSelector();

    protected override ReplicaSelectorFactory CreateFactory() => RoundRobinSelector.CreateFactory();

    private static int[] Picks(RoundRobinSelector selector, ReplicaState[] replicas, int count)
    {
        var picks = new int[count];
        for (var i = 0; i < count; i++)
        {
            picks[i] = selector.Choose(replicas, i).Index;
        }

        return picks;
    }
}
