// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class RandomSelectorTests : ReplicaSelectorConformanceTests
{
    protected override string ExpectedName => "random";

    [Fact]
    public void Choose_FixedSeed_IsRoughlyUniform()
    {
        // 40,000 picks over 4 replicas: 10,000 each, standard deviation about 87; allow ±5 %.
        var counts = Count(new RandomSelector(42), Replicas(4), 40_000);

        Assert.All(counts, c => Assert.InRange(c, 9_500, 10_500));
    }

    [Fact]
    public void Choose_OneDown_IsUniformOverTheOthers()
    {
        var replicas = Replicas(4);
        replicas[2].IsDown = true;

        var counts = Count(new RandomSelector(7), replicas, 30_000);

        Assert.Equal(0, counts[2]);
        Assert.InRange(counts[0], 9_500, 10_500);
        Assert.InRange(counts[1], 9_500, 10_500);
        Assert.InRange(counts[3], 9_500, 10_500);
    }

    [Fact]
    public void Choose_SameSeed_SameChoices()
    {
        var replicas = Replicas(7);
        var first = new RandomSelector(new Random(3));
        var second = new RandomSelector(3);

        for (var i = 0; i < 200; i++)
        {
            Assert.Equal(first.Choose(replicas, i), second.Choose(replicas, i));
        }
    }

    [Fact]
    public void Ctor_NullRandom_Throws() => Assert.Throws<ArgumentNullException>(() => new RandomSelector(null!));

    protected override IReplicaSelector CreateSelector() => new RandomSelector(1);

    protected override ReplicaSelectorFactory CreateFactory() => RandomSelector.CreateFactory(seed: 1);

    private static int[] Count(RandomSelector selector, ReplicaState[] replicas, int picks)
    {
        var counts = new int[replicas.Length];
        for (var i = 0; i < picks; i++)
        {
            counts[selector.Choose(replicas, i).Index]++;
        }

        return counts;
    }
}
