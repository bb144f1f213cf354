// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics.CodeAnalysis;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// How the <see cref="BottleneckFairnessPolicy"/> keeps holding a workflow it cut in a real overload once the overload
/// is gone (<see cref="BottleneckFairnessOptions.OverloadHold"/>).
/// </summary>
/// <remarks>
/// <para>
/// A cut removes the overload, and with it the evidence for the cut: the held workflow's demand is measured after its
/// own limiter, so it looks modest, and the policy ramps it back into the overload. Under FIFO the tenants beside it
/// wait behind every such regrowth, and behind a bottleneck kept full even when the regrowth stops at the target.
/// </para>
/// <para>
/// With these options a workflow already limited and cut again where the demand exceeded the target load by more than
/// <see cref="MinimumOverload"/> (or in a flood) stays held on every resource of this process it loads: its σ is kept
/// at the rate that brings its load to its max-min share of <see cref="Utilization"/> × the target load, where the
/// other workflows count at their loads and every held one at twice its own (so a held workflow can at most double per
/// interval). It follows the others' demand both ways, at most <see cref="BottleneckFairnessOptions.MaxDecrease"/> down
/// per interval. Alone on a resource (no workflow that is not held loads it) it may fill the target: holding it back
/// would protect nobody. It is released once it no longer uses its limit: its arrival rate times
/// <see cref="BottleneckFairnessOptions.RampHeadroom"/> (2 where that is unbounded) falls below σ.
/// </para>
/// </remarks>
[Experimental(RateControlDiagnostics.ExperimentalId)]
public sealed class OverloadHoldOptions
{
    /// <summary>
    /// Gets or sets the utilization of the target load that a held workflow may fill, beside the others' demand.
    /// </summary>
    /// <value>0.7. Values must be in (0, 1]. 1 keeps the policy work-conserving (a held workflow may use all that the
    /// others leave); lower values keep the bottleneck's queue, and so the others' tail latency under FIFO, short, at the
    /// cost of capacity left idle while the held workflow still wants it.</value>
    public double Utilization { get; set; } = 0.7;

    /// <summary>
    /// Gets or sets by how much the demand must have exceeded the target load (a fraction of it) for a cut to start a
    /// hold. A flood (demand over twice the target) always does.
    /// </summary>
    /// <value>0.2. Values must be in [0, 10]. Short of it, a cut is the transient kind a healthy system shows now and then,
    /// and holding it would cost that system requests.</value>
    public double MinimumOverload { get; set; } = 0.2;

    internal OverloadHoldOptions Clone() => (OverloadHoldOptions)MemberwiseClone();

    internal void Validate()
    {
        const string Prefix = nameof(BottleneckFairnessOptions.OverloadHold) + ".";
        if (!(Utilization is > 0 and <= 1))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(Utilization), Utilization, "Must be in (0, 1] (a fraction of the target load).");
        }

        if (!(MinimumOverload is >= 0 and <= 10))
        {
            throw new ArgumentOutOfRangeException(Prefix + nameof(MinimumOverload), MinimumOverload, "Must be in [0, 10] (a fraction of the target load).");
        }
    }
}
