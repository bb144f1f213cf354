// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>What a client learns when a response from a replica arrives (C3 §4.2.1): its own view and the server's piggybacked state.</summary>
/// <param name="ResponseTime">The response time the client saw, including the network.</param>
/// <param name="QueueSize">The server's waiting-queue length when the response left (not counting requests in service).</param>
/// <param name="ServiceTime">The time the server spent serving the request.</param>
/// <param name="BackgroundActivity">The server's background-activity signal in [0, 1] (compaction, GC), 0 when none (Wu's variant).</param>
/// <param name="Failed">Whether the call failed; failures carry no server feedback.</param>
/// <param name="WaitTime">How long the request waited in the server's queue before service (Wu's Ω), if reported.</param>
public readonly record struct ReplicaFeedback(
    TimeSpan ResponseTime,
    double QueueSize,
    TimeSpan ServiceTime,
    double BackgroundActivity = 0,
    bool Failed = false,
    TimeSpan WaitTime = default);
