// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Resources;
using Cicero.Runtime;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Cake's chunking (Cake §4.1, §5.1): a large sub-task is split into fixed-size chunks, each of which acquires the
/// resource, runs and releases it before the next one queues again. A large request therefore holds a permit for one
/// chunk at a time, and small sub-tasks of other workflows interleave with its chunks in the scheduler's order.
/// </summary>
public static class ChunkedSubtaskExtensions
{
    /// <summary>The chunk size Cake chose for disks.</summary>
    public const int DefaultChunkSize = 64 * 1024;

    /// <summary>Runs a sub-task of <paramref name="totalSize"/> units as chunks of at most <paramref name="chunkSize"/>.</summary>
    /// <param name="resource">The resource each chunk acquires.</param>
    /// <param name="context">The request the sub-task belongs to.</param>
    /// <param name="totalSize">The sub-task's size, in the caller's units; at least 1.</param>
    /// <param name="chunkSize">The largest chunk; at least 1.</param>
    /// <param name="work">Runs one chunk while its permit is held.</param>
    /// <param name="cancellationToken">Cancels waiting and is passed to <paramref name="work"/>.</param>
    /// <returns>The number of chunks run.</returns>
    /// <exception cref="RequestDroppedException">A chunk was turned away (for example the queue was full); earlier chunks have run.</exception>
    public static async ValueTask<int> RunChunkedAsync(
        this ResourceSemaphore resource,
        RequestContext context,
        long totalSize,
        int chunkSize,
        Func<SubtaskChunk, CancellationToken, ValueTask> work,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(resource);
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(work);
        ArgumentOutOfRangeException.ThrowIfLessThan(totalSize, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(chunkSize, 1);
        var count = checked((int)((totalSize + chunkSize - 1) / chunkSize));
        for (var index = 0; index < count; index++)
        {
            var offset = (long)index * chunkSize;
            var length = (int)Math.Min(chunkSize, totalSize - offset);
            // Each chunk declares its share of a full chunk as its cost, so cost-aware schedulers charge it fairly.
            using var lease = await resource.AcquireAsync(context, (double)length / chunkSize, cancellationToken: cancellationToken).ConfigureAwait(false);
            if (!lease.IsAcquired)
            {
                throw new RequestDroppedException(lease.RejectionReason, $"chunk {index} of {count} at resource '{resource.Name}'");
            }

            await work(new SubtaskChunk(index, offset, length, count), cancellationToken).ConfigureAwait(false);
        }

        return count;
    }
}
