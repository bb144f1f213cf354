// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Cicero.ReplicaSelection;
using Grpc.Core;
using Grpc.Net.Client.Balancer;

namespace Cicero.Grpc.LoadBalancing;

/// <summary>
/// One picked call, from the pick to its feedback: finishes the pick in the replica group exactly once, with the
/// server's feedback from the trailers when the interceptor reports them, with the response time alone when no
/// interceptor tracks the call, and as a failure when the call never reached the replica.
/// </summary>
internal sealed class ReplicaCallTracker(ReplicaSelectorBalancer owner, ReplicaState replica) : ISubchannelCallTracker
{
    private long _started;
    private int _finished;
    private int _headersArrived;
    private int _waitForTrailers;

    /// <summary>Set by the picker when an interceptor will hand over this call's trailers.</summary>
    public void WaitForTrailers() => Volatile.Write(ref _waitForTrailers, 1);

    public void Start() => _started = owner.TimeProvider.GetTimestamp();

    public void Complete(CompletionContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Error is not null)
        {
            // The request never got a response: the replica is unreachable or the call was cancelled on the way.
            Finish(new ReplicaFeedback(Elapsed(), 0, Elapsed(), failed: true));
            return;
        }

        Volatile.Write(ref _headersArrived, 1);
        if (Volatile.Read(ref _waitForTrailers) == 0)
        {
            FinishWithoutTrailers();
        }
    }

    /// <summary>Finishes with the response time alone (no interceptor will report the trailers).</summary>
    public void FinishWithoutTrailers()
    {
        Volatile.Write(ref _waitForTrailers, 0);
        if (Volatile.Read(ref _headersArrived) == 1)
        {
            var elapsed = Elapsed();
            Finish(new ReplicaFeedback(elapsed, 0, elapsed));
        }
    }

    /// <summary>Called by the interceptor when the call ended, with its result trailer if it had one.</summary>
    public void OnCallEnded(in DecodedResultTrailer result, bool hasTrailers, StatusCode status)
    {
        var elapsed = Elapsed();
        // A call the replica refused (Cicero's drops) or never finished tells nothing about how fast it serves.
        var failed = status is StatusCode.ResourceExhausted or StatusCode.DeadlineExceeded
            || (!hasTrailers && status is StatusCode.Unavailable or StatusCode.Cancelled);
        // A server without Cicero's trailer still tells its response time; a failed call tells nothing.
        Finish(!failed && result.IsValid ? result.Feedback(elapsed) : new ReplicaFeedback(elapsed, 0, elapsed, failed: failed));
    }

    private TimeSpan Elapsed() => _started == 0 ? TimeSpan.Zero : owner.TimeProvider.GetElapsedTime(_started);

    private void Finish(in ReplicaFeedback feedback)
    {
        if (Interlocked.Exchange(ref _finished, 1) == 0)
        {
            owner.OnFinished(replica, feedback);
        }
    }
}
