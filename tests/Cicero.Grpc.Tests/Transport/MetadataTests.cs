// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Tests.Transport;

public sealed class MetadataTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(5)]
    [InlineData(9)]
    public void Entries_KeepTheirOrder_ThroughIndexerAndEnumerator(int count)
    {
        var metadata = new Metadata();
        for (var i = 0; i < count; i++)
        {
            metadata.Add($"k{i}", $"v{i}");
        }

        Assert.Equal(count, metadata.Count);
        Assert.Equal(Enumerable.Range(0, count).Select(i => $"v{i}"), Enumerable.Range(0, count).Select(i => metadata[i].Value));
        var seen = new List<string>();
        foreach (var entry in metadata)
        {
            seen.Add(entry.Key);
        }

        Assert.Equal(Enumerable.Range(0, count).Select(i => $"k{i}"), seen);
        Assert.Equal(seen, ((IEnumerable<MetadataEntry>)metadata).Select(e => e.Key));
    }

    [Fact]
    public void Indexer_OutsideTheEntries_Throws()
    {
        var metadata = new Metadata().Add("a", "1");

        Assert.Throws<ArgumentOutOfRangeException>(() => metadata[1]);
        Assert.Throws<ArgumentOutOfRangeException>(() => metadata[-1]);
        Assert.Throws<ArgumentOutOfRangeException>(() => new Metadata()[0]);
    }

    [Fact]
    public void Get_ReturnsTheLastEntryWithTheKey_IgnoringCase()
    {
        var metadata = new Metadata().Add("a", "1").Add("b", "2").Add("A", "3");

        Assert.Equal("3", metadata.GetValue("a"));
        Assert.Equal("2", metadata.GetValue("B"));
        Assert.Null(metadata.Get("c"));
    }

    [Fact]
    public void Remove_DropsEveryEntryWithTheKey_AndKeepsTheRestInOrder()
    {
        var metadata = new Metadata().Add("a", "1").Add("b", "2").Add("a", "3").Add("c", "4").Add("A", "5");

        Assert.True(metadata.Remove("a"));

        Assert.Equal(["b", "c"], metadata.Select(e => e.Key));
        Assert.False(metadata.Remove("a"));
        metadata.Add("d", "6");
        Assert.Equal(["2", "4", "6"], metadata.Select(e => e.Value));
        Assert.True(metadata.Remove("b"));
        Assert.True(metadata.Remove("c"));
        Assert.True(metadata.Remove("d"));
        Assert.Empty(metadata);
        Assert.Null(metadata.Get("b"));
    }

    [Fact]
    public void Adding_WhileEnumerating_Throws()
    {
        var metadata = new Metadata().Add("a", "1");

        Assert.Throws<InvalidOperationException>(() =>
        {
            foreach (var entry in metadata)
            {
                metadata.Add("b", entry.Value);
            }
        });
    }
}
