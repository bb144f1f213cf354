// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>What a client learns when a response from a replica arrives (C3 §4.2.1): its own view and the server's piggybacked state.</summary>
/// <param name="responseTime">The response time the client saw, including the network.</param>
/// <param name="queueSize">The server's waiting-queue length when the response left (not counting requests in service).</param>
/// <param name="serviceTime">The time the server spent serving the request.</param>
/// <param name="backgroundActivity">The server's background-activity signal in [0, 1] (compaction, GC), 0 when none (Wu's variant).</param>
/// <param name="failed">Whether the call failed; failures carry no server feedback.</param>
/// <param name="waitTime">How long the request waited in the server's queue before service (Wu's Ω), if reported.</param>
public readonly struct ReplicaFeedback(
    TimeSpan responseTime,
    double queueSize,
    TimeSpan serviceTime,
    double backgroundActivity = 0,
    bool failed = false,
    TimeSpan waitTime = default)
{
    /// <summary>Gets the response time the client saw, including the network.</summary>
    public TimeSpan ResponseTime { get; init; } = responseTime;

    /// <summary>Gets the server's waiting-queue length when the response left (not counting requests in service).</summary>
    public double QueueSize { get; init; } = queueSize;

    /// <summary>Gets the time the server spent serving the request.</summary>
    public TimeSpan ServiceTime { get; init; } = serviceTime;

    /// <summary>Gets the server's background-activity signal in [0, 1] (compaction, GC), 0 when none (Wu's variant).</summary>
    public double BackgroundActivity { get; init; } = backgroundActivity;

    /// <summary>Gets a value indicating whether the call failed; failures carry no server feedback.</summary>
    public bool Failed { get; init; } = failed;

    /// <summary>Gets how long the request waited in the server's queue before service (Wu's Ω), if reported.</summary>
    public TimeSpan WaitTime { get; init; } = waitTime;
}
