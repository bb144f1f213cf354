// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>The configuration names of the built-in rate-limit policies.</summary>
public static class RateLimitPolicies
{
    /// <summary>No local limit: each workflow is admitted at the downstream rate (Core's pass-through policy).</summary>
    public const string PassThrough = "pass-through";

    /// <summary>
    /// Bottleneck fairness with Cicero's safe defaults (<see cref="BottleneckFairnessOptions"/>): unlimited until a
    /// resource is overloaded, bounded ramp, cuts to a level (docs/decisions/0011).
    /// </summary>
    public const string BottleneckFairness = "bottleneck-fairness";

    /// <summary>
    /// Bottleneck fairness exactly as the dissertation's Algorithm 4 is written (<see cref="BottleneckFairnessOptions.AsWritten"/>),
    /// for reproducing its experiments.
    /// </summary>
    public const string BottleneckFairnessAsWritten = "bottleneck-fairness-paper";

    /// <summary>Fixed per-workflow rates.</summary>
    public const string Static = "static";

    /// <summary>Reserved minimum rates honoured first, the rest shared max-min fairly.</summary>
    public const string MinimumThroughput = "min-throughput";

    /// <summary>Cake's second-level SLO-compliance controller.</summary>
    public const string CakeSlo = "cake-slo";
}
