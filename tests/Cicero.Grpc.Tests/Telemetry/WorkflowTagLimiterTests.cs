// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Telemetry;
using Cicero.Workflows;

namespace Cicero.Grpc.Tests.Telemetry;

public class WorkflowTagLimiterTests
{
    private const string Overflow = CiceroGrpcTelemetry.OverflowWorkflowTagValue;

    [Fact]
    public void GetTag_100000DistinctIdsEachRepeated_NeverMoreThanMaxPlusOneValues()
    {
        var limiter = new WorkflowTagLimiter();
        var ids = Enumerable.Range(0, 100_000).Select(i => $"tenant-{i}").ToArray();
        var values = new HashSet<string>(StringComparer.Ordinal);

        // Repeats interleaved in rounds, so many ids reach the threshold and compete for the names.
        for (var round = 0; round < WorkflowTagLimiter.DefaultPromotionThreshold + 2; round++)
        {
            for (var i = 0; i < 1_000; i++)
            {
                values.Add(limiter.GetTag(ids[i]));
            }
        }

        foreach (var id in ids)
        {
            values.Add(limiter.GetTag(id));
        }

        Assert.Equal(WorkflowTagLimiter.DefaultMaxValues, limiter.NamedCount);
        Assert.Equal(WorkflowTagLimiter.DefaultMaxValues + 1, values.Count);
        Assert.Contains(Overflow, values);
    }

    [Fact]
    public void GetTag_ConcurrentFloodOfDistinctIds_NeverMoreThanMaxPlusOneValues()
    {
        const int MaxValues = 50;
        var limiter = new WorkflowTagLimiter(MaxValues, promotionThreshold: 2);
        var values = new System.Collections.Concurrent.ConcurrentDictionary<string, bool>(StringComparer.Ordinal);

        Parallel.For(0, 100_000, new ParallelOptions { MaxDegreeOfParallelism = 4 }, i =>
        {
            // Each id comes twice, from different iterations, so promotions race with each other.
            values.TryAdd(limiter.GetTag($"id-{i / 2}"), true);
        });

        Assert.InRange(limiter.NamedCount, 1, MaxValues);
        Assert.InRange(values.Count, 2, MaxValues + 1);
        Assert.True(values.ContainsKey(Overflow));
    }

    [Fact]
    public void GetTag_HeavyHittersAfterAFloodOfOneOffIds_KeepTheirNames()
    {
        var limiter = new WorkflowTagLimiter(firstSeenValues: 0);
        var heavy = Enumerable.Range(0, 10).Select(i => $"heavy-{i}").ToArray();
        var next = 0;
        for (var i = 0; i < 50_000; i++)
        {
            Assert.Equal(Overflow, limiter.GetTag($"scan-{next++}"));
        }

        // Then half the traffic is ten real workflows, half more one-off ids: 100,000 distinct ids in all.
        for (var i = 0; i < 100_000; i++)
        {
            limiter.GetTag(i % 2 == 0 ? heavy[(i / 2) % heavy.Length] : $"scan-{next++}");
        }

        Assert.All(heavy, id => Assert.Equal(id, limiter.GetTag(id)));
        Assert.Equal(heavy.Length, limiter.NamedCount);
        Assert.Equal(Overflow, limiter.GetTag($"scan-{next}"));
    }

    [Fact]
    public void GetTag_DefaultLimiter_NamesAFewTenantsFromTheirFirstRequest()
    {
        var limiter = new WorkflowTagLimiter();
        var tenants = Enumerable.Range(0, 20).Select(i => $"tenant-{i}").ToArray();

        // No request of a tenant, not even its first, is tagged as overflow: no overflow series at all.
        foreach (var tenant in tenants)
        {
            Assert.Equal(tenant, limiter.GetTag(tenant));
        }

        Assert.Equal(20, limiter.NamedCount);
        Assert.Equal(WorkflowTagLimiter.DefaultMaxValues / 2, limiter.FirstSeenValues);
    }

    [Fact]
    public void GetTag_FloodAfterTheFirstSeenNames_LeavesTheRestToHeavyIds()
    {
        var limiter = new WorkflowTagLimiter(maxValues: 10, promotionThreshold: 4, firstSeenValues: 4);
        for (var i = 0; i < 4; i++)
        {
            Assert.Equal($"early-{i}", limiter.GetTag($"early-{i}"));
        }

        var random = new Random(9);
        for (var i = 0; i < 20_000; i++)
        {
            var id = random.Next(2) == 0 ? $"heavy-{random.Next(6)}" : $"scan-{i}";
            limiter.GetTag(id);
        }

        Assert.Equal(10, limiter.NamedCount);
        Assert.All(Enumerable.Range(0, 6), i => Assert.Equal($"heavy-{i}", limiter.GetTag($"heavy-{i}")));
        Assert.Equal(Overflow, limiter.GetTag("scan-late"));
    }

    [Fact]
    public void GetTag_ThresholdOne_FirstSeenWin()
    {
        var limiter = new WorkflowTagLimiter(maxValues: 2, promotionThreshold: 1);

        Assert.Equal("a", limiter.GetTag("a"));
        Assert.Equal("b", limiter.GetTag("b"));
        Assert.Equal(Overflow, limiter.GetTag("c"));
        Assert.Equal("a", limiter.GetTag("a"));
    }

    [Fact]
    public void GetTag_BelowThreshold_IsOverflowUntilPromoted()
    {
        var limiter = new WorkflowTagLimiter(maxValues: 5, promotionThreshold: 3, firstSeenValues: 0);

        Assert.Equal(Overflow, limiter.GetTag("orders"));
        Assert.Equal(Overflow, limiter.GetTag("orders"));
        Assert.Equal("orders", limiter.GetTag("orders"));
        Assert.Equal("orders", limiter.GetTag(new WorkflowId("orders")));
        Assert.Equal(1, limiter.NamedCount);
    }

    [Fact]
    public void GetTag_InvalidOrReservedText_IsOverflowAndNeverNamed()
    {
        var limiter = new WorkflowTagLimiter(maxValues: 5, promotionThreshold: 1);

        Assert.Equal(Overflow, limiter.GetTag(""));
        Assert.Equal(Overflow, limiter.GetTag("has space"));
        Assert.Equal(Overflow, limiter.GetTag(new string('x', WorkflowId.MaxLength + 1)));
        Assert.Equal(Overflow, limiter.GetTag(Overflow));
        Assert.Equal(Overflow, limiter.GetTag(default(WorkflowId)));
        Assert.Equal(0, limiter.NamedCount);
    }

    [Fact]
    public void GetTag_ZeroMaxValues_AlwaysOverflow()
    {
        var limiter = new WorkflowTagLimiter(maxValues: 0, promotionThreshold: 1);

        Assert.Equal(Overflow, limiter.GetTag("a"));
        Assert.Equal(0, limiter.NamedCount);
    }

    [Fact]
    public void GetTag_KnownIdsAndOverflowOnceFull_AllocateNothing()
    {
        var limiter = new WorkflowTagLimiter(maxValues: 2, promotionThreshold: 1);
        WorkflowId named = "checkout";
        var other = "search";
        limiter.GetTag(named);
        limiter.GetTag("cart");
        limiter.GetTag(other);

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 10_000; i++)
        {
            limiter.GetTag(named);
            limiter.GetTag(other);
        }

        // The runtime itself may allocate a few bytes now and then (tiering); one object per call would be 480,000.
        Assert.InRange(GC.GetAllocatedBytesForCurrentThread() - before, 0, 1_024);
    }

    [Fact]
    public void GetTag_CountingUnnamedIds_AllocatesNothingInSteadyState()
    {
        var limiter = new WorkflowTagLimiter(maxValues: 4, promotionThreshold: 1_000_000);
        // More ids than the sketch holds, so the steady state evicts on almost every call.
        var ids = Enumerable.Range(0, 5_000).Select(i => $"id-{i}").ToArray();
        foreach (var id in ids)
        {
            limiter.GetTag(id);
        }

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var round = 0; round < 4; round++)
        {
            foreach (var id in ids)
            {
                limiter.GetTag(id);
            }
        }

        // The runtime itself may allocate a few bytes now and then (tiering); one object per call would be 480,000.
        Assert.InRange(GC.GetAllocatedBytesForCurrentThread() - before, 0, 1_024);
    }

    [Fact]
    public void Constructor_InvalidArguments_Throw()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new WorkflowTagLimiter(maxValues: 4, firstSeenValues: 5));
        Assert.Throws<ArgumentOutOfRangeException>(() => new WorkflowTagLimiter(firstSeenValues: -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new WorkflowTagLimiter(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new WorkflowTagLimiter(1_000_001));
        Assert.Throws<ArgumentOutOfRangeException>(() => new WorkflowTagLimiter(10, 0));
        Assert.Throws<ArgumentNullException>(() => new WorkflowTagLimiter().GetTag((string)null!));
    }
}
