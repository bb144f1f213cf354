// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;
using Cicero.Runtime;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.Scheduling;

public class ChunkedSubtaskExtensionsTests
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public async Task RunChunkedAsync_TenMegabytesIn64KChunks_IsServedAs160ChunksInterleavedWithSmallSubtasks()
    {
        var disk = new ResourceSemaphore(
            new ResourceSemaphoreOptions { Name = "disk", Capacity = 1, RunContinuationsAsynchronously = false }, _registry, null, _clock);
        var order = new List<string>();
        var small = new List<Task>();
        async Task SmallRead()
        {
            using var lease = await disk.AcquireAsync(RequestContext.Start("frontend", _clock));
            order.Add("small");
        }

        // While each chunk holds the disk, a small front-end read arrives and queues behind it.
        var chunks = await disk.RunChunkedAsync(RequestContext.Start("batch", _clock), 10L * 1024 * 1024, 64 * 1024, (chunk, _) =>
        {
            order.Add($"chunk {chunk.Index}");
            small.Add(SmallRead());
            return ValueTask.CompletedTask;
        });
        await Task.WhenAll(small);

        Assert.Equal(160, chunks);
        Assert.Equal(320, order.Count);
        for (var i = 0; i < 160; i++)
        {
            Assert.Equal($"chunk {i}", order[2 * i]);
            Assert.Equal("small", order[(2 * i) + 1]);
        }
    }

    [Fact]
    public async Task RunChunkedAsync_LastChunkIsShorter_AndOffsetsAreContiguous()
    {
        var disk = new ResourceSemaphore(new ResourceSemaphoreOptions { Name = "disk", Capacity = 1 }, _registry, null, _clock);
        var chunks = new List<SubtaskChunk>();

        await disk.RunChunkedAsync(RequestContext.Start("w", _clock), 250, 100, (chunk, _) =>
        {
            chunks.Add(chunk);
            return ValueTask.CompletedTask;
        });

        Assert.Equal([new SubtaskChunk(0, 0, 100, 3), new SubtaskChunk(1, 100, 100, 3), new SubtaskChunk(2, 200, 50, 3)], chunks);
    }

    [Fact]
    public async Task RunChunkedAsync_QueueFull_ThrowsWithReason()
    {
        var disk = new ResourceSemaphore(new ResourceSemaphoreOptions { Name = "disk", Capacity = 1, MaxQueueLength = 0 }, _registry, null, _clock);
        using var held = await disk.AcquireAsync(RequestContext.Start("other", _clock));

        var error = await Assert.ThrowsAsync<RequestDroppedException>(async () =>
            await disk.RunChunkedAsync(RequestContext.Start("w", _clock), 10, 5, (_, _) => ValueTask.CompletedTask));

        Assert.Equal(DropReason.QueueFull, error.Reason);
        Assert.Contains("chunk 0 of 2", error.Message, StringComparison.Ordinal);
    }
}
