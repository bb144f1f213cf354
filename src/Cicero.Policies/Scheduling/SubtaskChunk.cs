// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Scheduling;

/// <summary>One chunk of a large sub-task split by <see cref="ChunkedSubtaskExtensions.RunChunkedAsync"/>.</summary>
/// <param name="Index">The chunk's number, from 0.</param>
/// <param name="Offset">Where the chunk starts in the whole sub-task, in the caller's units (bytes, rows).</param>
/// <param name="Length">The chunk's length, at most the chunk size.</param>
/// <param name="Count">How many chunks the sub-task has.</param>
public readonly record struct SubtaskChunk(int Index, long Offset, int Length, int Count);
