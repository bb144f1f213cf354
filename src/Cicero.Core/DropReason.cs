// SPDX-License-Identifier: Apache-2.0

namespace Cicero;

/// <summary>Why Cicero turned a request or sub-task away. Every rejection carries one.</summary>
public enum DropReason
{
    /// <summary>Not dropped.</summary>
    None = 0,

    /// <summary>
    /// The workflow's admission rate σ turned it away: its limiter queue is full, or the wait for a token at σ would
    /// make it miss its deadline.
    /// </summary>
    RateLimited = 1,

    /// <summary>
    /// The request cannot finish before its deadline even without waiting: its elapsed time plus the expected completion
    /// time here passes the deadline (section 5.2.5), or a resource's sub-task could not end by it.
    /// </summary>
    DeadlineInfeasible = 2,

    /// <summary>A resource's wait queue is full.</summary>
    QueueFull = 3,

    /// <summary>A downstream service dropped the request.</summary>
    DownstreamDropped = 4,

    /// <summary>An operator policy dropped it for a reason of its own.</summary>
    Policy = 5,

    /// <summary>The request's deadline had already passed when it arrived: nothing could finish in time.</summary>
    DeadlineExpired = 6,
}
