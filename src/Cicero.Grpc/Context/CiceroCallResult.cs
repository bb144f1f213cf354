// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;

namespace Cicero.Grpc.Context;

/// <summary>What a Cicero server reports in its trailer about a call it served (<see cref="CiceroTrailers"/>).</summary>
/// <param name="progress">The progress b: service time and load of the callee and everything it called.</param>
/// <param name="queueSize">The callee's other admitted calls in progress when this one ended (C3's queue size).</param>
/// <param name="serviceTime">The time from admission to the end of the call at the callee.</param>
/// <param name="backgroundActivity">The callee's background-activity signal in [0, 1] (e.g. compaction).</param>
/// <param name="instance">The id of the instance that served the call.</param>
public readonly struct CiceroCallResult(ProgressDelta progress, double queueSize, TimeSpan serviceTime, double backgroundActivity, string instance)
{
    /// <summary>Gets the progress b: service time and load of the callee and everything it called.</summary>
    public ProgressDelta Progress { get; init; } = progress;

    /// <summary>Gets the callee's other admitted calls in progress when this one ended (C3's queue size).</summary>
    public double QueueSize { get; init; } = queueSize;

    /// <summary>Gets the time from admission to the end of the call at the callee.</summary>
    public TimeSpan ServiceTime { get; init; } = serviceTime;

    /// <summary>Gets the callee's background-activity signal in [0, 1] (e.g. compaction).</summary>
    public double BackgroundActivity { get; init; } = backgroundActivity;

    /// <summary>Gets the id of the instance that served the call.</summary>
    public string Instance { get; init; } = instance;
}
