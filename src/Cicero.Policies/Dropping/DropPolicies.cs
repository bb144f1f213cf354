// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Dropping;

/// <summary>The configuration names of the built-in drop policies.</summary>
public static class DropPolicies
{
    /// <summary>Drop requests that cannot meet their deadline (Core's default, section 5.2.5).</summary>
    public const string DeadlineFeasibility = "deadline-feasibility";

    /// <summary>Drop when a workflow's limiter queue is longer than a threshold.</summary>
    public const string QueueLength = "queue-length";

    /// <summary>Never drop early; only the rate and the queue bound limit admission.</summary>
    public const string Never = "never";
}
