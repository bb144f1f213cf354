// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Internal;

namespace Cicero.Admission;

/// <summary>One workflow's admission state: its token bucket at σ, its bounded queue of waiters, and its probe times.</summary>
/// <remarks>Not thread-safe: the <see cref="AdmissionController"/>'s lock guards every instance.</remarks>
internal sealed class WorkflowLimiter(TokenBucket bucket, int queueLimit)
{
    public readonly Deque<WaitNode<AdmissionResult, RequestContext>> Queue = new(4);

    public TokenBucket Bucket { get; } = bucket;

    public int QueueLimit { get; set; } = queueLimit;

    public double? ExplicitBurst { get; set; }

    public bool IsWaitingListed { get; set; }

    public long LastAdmittedAt { get; set; }

    public long LastProbeAt { get; set; }
}
