// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Tests.Workflows;

public class WorkflowRegistryTests
{
    [Fact]
    public void Resolve_ManyDistinctIds_NeverGrowsPastBound_AndFoldsIntoOverflow()
    {
        var registry = new WorkflowRegistry(maxWorkflows: 100);

        for (var i = 0; i < 100_000; i++)
        {
            registry.Resolve(new WorkflowId($"tenant-{i}"));
        }

        Assert.Equal(101, registry.Count);
        Assert.Equal(99_900, registry.OverflowCount);
        Assert.Same(registry.Overflow, registry.Resolve(new WorkflowId("tenant-99999")));
        Assert.False(registry.TryGet(new WorkflowId("tenant-99999"), out _));
        Assert.Equal("tenant-0", registry.Resolve(new WorkflowId("tenant-0")).Id.Value);
    }

    [Fact]
    public void Resolve_SameId_ReturnsSameSlot_WithDenseIndex()
    {
        var registry = new WorkflowRegistry(4);

        var a = registry.Resolve("a");
        var b = registry.Resolve("b");

        Assert.Same(a, registry.Resolve("a"));
        Assert.Equal(1, a.Index);
        Assert.Equal(2, b.Index);
        Assert.True(registry.TryGet("b".AsSpan(), out var found));
        Assert.Same(b, found);
    }

    [Fact]
    public void Resolve_Context_CachesSlotPerRegistry()
    {
        var first = new WorkflowRegistry();
        var second = new WorkflowRegistry();
        second.Resolve("other");
        var context = RequestContext.Start("tenant", TimeProvider.System);

        var a = first.Resolve(context);
        var b = second.Resolve(context);

        Assert.Same(first, a.Registry);
        Assert.Same(second, b.Registry);
        Assert.Equal(1, a.Index);
        Assert.Equal(2, b.Index);
    }

    [Fact]
    public async Task Resolve_Concurrently_AssignsEachIdOnce()
    {
        var registry = new WorkflowRegistry(1000);
        var tasks = Enumerable.Range(0, 4).Select(_ => Task.Run(() =>
        {
            for (var i = 0; i < 500; i++)
            {
                registry.Resolve(new WorkflowId($"w{i}"));
            }
        }));

        await Task.WhenAll(tasks);

        Assert.Equal(501, registry.Count);
        var indexes = Enumerable.Range(0, 500).Select(i => registry.Resolve(new WorkflowId($"w{i}")).Index).ToHashSet();
        Assert.Equal(500, indexes.Count);
    }

    [Theory]
    [InlineData("", "empty")]
    [InlineData("has space", "position 3")]
    [InlineData("tab\tchar", "position 3")]
    [InlineData("é", "position 0")]
    public void WorkflowId_InvalidText_IsRejectedWithReason(string text, string expected)
    {
        Assert.False(WorkflowId.TryCreate(text, out _, out var error));
        Assert.Contains(expected, error, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => new WorkflowId(text));
    }

    [Fact]
    public void WorkflowId_TooLong_IsRejected()
    {
        Assert.False(WorkflowId.TryCreate(new string('x', WorkflowId.MaxLength + 1), out _, out var error));
        Assert.Contains("limit is 128", error, StringComparison.Ordinal);
        Assert.True(WorkflowId.TryCreate(new string('x', WorkflowId.MaxLength), out _, out _));
    }
}
