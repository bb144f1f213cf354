// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>How current a downstream service's rate answers are.</summary>
public enum DownstreamStatus
{
    /// <summary>Every instance answered within the last two control intervals.</summary>
    Fresh = 0,

    /// <summary>Some instances are silent; their last good answers are still used, up to the hold time.</summary>
    Holding = 1,

    /// <summary>No instance has a usable answer: the service no longer constrains rates and the local policy decides.</summary>
    Expired = 2,

    /// <summary>
    /// No instance takes part in rate exchange (they run no Cicero, e.g. plain gRPC services): the service limits
    /// nothing and the local policy decides.
    /// </summary>
    Unsupported = 3,
}
