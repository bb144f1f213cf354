// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Scheduling;

/// <summary>One chunk of a large sub-task split by <see cref="ChunkedSubtaskExtensions.RunChunkedAsync"/>.</summary>
/// <param name="index">The chunk's number, from 0.</param>
/// <param name="offset">Where the chunk starts in the whole sub-task, in the caller's units (bytes, rows).</param>
/// <param name="length">The chunk's length, at most the chunk size.</param>
/// <param name="count">How many chunks the sub-task has.</param>
public readonly struct SubtaskChunk(int index, long offset, int length, int count)
{
    /// <summary>Gets the chunk's number, from 0.</summary>
    public int Index { get; } = index;

    /// <summary>Gets where the chunk starts in the whole sub-task, in the caller's units (bytes, rows).</summary>
    public long Offset { get; } = offset;

    /// <summary>Gets the chunk's length, at most the chunk size.</summary>
    public int Length { get; } = length;

    /// <summary>Gets how many chunks the sub-task has.</summary>
    public int Count { get; } = count;
}
