// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;

namespace Cicero.Grpc.Context;

/// <summary>What a Cicero server reports in its trailer about a call it served (<see cref="CiceroTrailers"/>).</summary>
/// <param name="Progress">The progress b: service time and load of the callee and everything it called.</param>
/// <param name="QueueSize">The callee's other admitted calls in progress when this one ended (C3's queue size).</param>
/// <param name="ServiceTime">The time from admission to the end of the call at the callee.</param>
/// <param name="BackgroundActivity">The callee's background-activity signal in [0, 1] (e.g. compaction).</param>
/// <param name="Instance">The id of the instance that served the call.</param>
public readonly record struct CiceroCallResult(ProgressDelta Progress, double QueueSize, TimeSpan ServiceTime, double BackgroundActivity, string Instance);
