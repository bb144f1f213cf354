// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;

namespace Cicero.Policies.Tests.RateLimiting;

public class MaxMinFairnessTests
{
    [Fact]
    public void Allocate_TextbookDemands_SmallOnesSatisfiedRestSplitEqually()
    {
        // Share 10/4 = 2.5 covers 2; 8/3 ≈ 2.67 covers 2.6; the last two split 5.4.
        var allocations = Allocate([2, 2.6, 4, 5], 10);

        Assert.Equal(2, allocations[0], 12);
        Assert.Equal(2.6, allocations[1], 12);
        Assert.Equal(2.7, allocations[2], 12);
        Assert.Equal(2.7, allocations[3], 12);
    }

    [Fact]
    public void Allocate_UnsortedInput_AllocatesByIndex()
    {
        var allocations = Allocate([5, 2, 4, 2.6], 10);

        Assert.Equal([2.7, 2, 2.7, 2.6], allocations.Select(a => Math.Round(a, 12)));
    }

    [Fact]
    public void Allocate_EqualDemandsAboveShare_SplitsEqually()
    {
        var allocations = Allocate([8, 8, 8], 12);

        Assert.Equal([4.0, 4.0, 4.0], allocations);
    }

    [Fact]
    public void Allocate_TotalDemandBelowCapacity_EveryoneGetsDemand()
    {
        var allocations = Allocate([1, 3, 0, 2], 100);

        Assert.Equal([1.0, 3.0, 0.0, 2.0], allocations);
    }

    [Fact]
    public void Allocate_ZeroCapacity_AllocatesNothing()
    {
        var allocations = Allocate([1, 3], 0);

        Assert.Equal([0.0, 0.0], allocations);
    }

    [Fact]
    public void Allocate_InfiniteDemand_TakesWhatIsLeft()
    {
        var allocations = Allocate([double.PositiveInfinity, 1], 10);

        Assert.Equal([9.0, 1.0], allocations);
    }

    [Fact]
    public void Allocate_Weighted_SharesFollowWeights()
    {
        // Weights 1:2:1, capacity 12. Normalised demands 10, 1, 2: b (2 ≤ 12·2/4 = 6) gets 2; 10 is left for weights
        // 1 + 1, so c (2 ≤ 5) gets 2 and a gets the remaining 8.
        var allocations = new double[3];
        MaxMinFairness.Allocate([10, 2, 2], [1, 2, 1], 12, allocations);

        Assert.Equal([8.0, 2.0, 2.0], allocations);
    }

    [Fact]
    public void Allocate_WeightedAllAboveShare_SplitsByWeight()
    {
        var allocations = new double[2];
        MaxMinFairness.Allocate([100, 100], [1, 3], 8, allocations);

        Assert.Equal([2.0, 6.0], allocations);
    }

    [Fact]
    public void Allocate_MoreThanStackLimit_MatchesEqualSplit()
    {
        var demands = new double[100];
        Array.Fill(demands, 5);
        demands[0] = 1;

        var allocations = Allocate(demands, 100);

        // The one small demand is met; 99 left for 99 others.
        Assert.Equal(1, allocations[0]);
        Assert.All(allocations.Skip(1), a => Assert.Equal(1, a, 12));
    }

    [Fact]
    public void Allocate_SameSpanForDemandsAndAllocations_Works()
    {
        double[] values = [2, 2.6, 4, 5];

        MaxMinFairness.Allocate(values, 10, values);

        Assert.Equal([2, 2.6, 2.7, 2.7], values.Select(a => Math.Round(a, 12)));
    }

    [Fact]
    public void Allocate_SteadyState_DoesNotAllocate()
    {
        var demands = new double[64];
        var allocations = new double[64];
        for (var i = 0; i < demands.Length; i++)
        {
            demands[i] = i;
        }

        MaxMinFairness.Allocate(demands, 100, allocations);
        var before = GC.GetAllocatedBytesForCurrentThread();
        MaxMinFairness.Allocate(demands, 100, allocations);

        Assert.Equal(before, GC.GetAllocatedBytesForCurrentThread());
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(double.NaN)]
    public void Allocate_InvalidDemand_Throws(double value) =>
        Assert.Throws<ArgumentException>("demands", () => Allocate([1, value], 10));

    [Theory]
    [InlineData(-1)]
    [InlineData(double.NaN)]
    public void Allocate_InvalidCapacity_Throws(double value) =>
        Assert.Throws<ArgumentOutOfRangeException>("capacity", () => Allocate([1], value));

    [Fact]
    public void Allocate_LengthMismatch_Throws()
    {
        Assert.Throws<ArgumentException>("allocations", () => MaxMinFairness.Allocate([1, 2], 10, new double[1]));
        Assert.Throws<ArgumentException>("weights", () => MaxMinFairness.Allocate([1, 2], [1], 10, new double[2]));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    [InlineData(double.PositiveInfinity)]
    public void Allocate_InvalidWeight_Throws(double value) =>
        Assert.Throws<ArgumentException>("weights", () => MaxMinFairness.Allocate([1, 2], [1, value], 10, new double[2]));

    private static double[] Allocate(double[] demands, double capacity)
    {
        var allocations = new double[demands.Length];
        MaxMinFairness.Allocate(demands, capacity, allocations);
        return allocations;
    }
}
