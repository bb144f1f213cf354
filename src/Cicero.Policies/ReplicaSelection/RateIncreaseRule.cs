// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// How a <see cref="CubicRateController"/> raises its sending rate when the replica answers faster than it is sent to.
/// The decrease (rate × β) and the congestion signal (srate above rrate) are the same for all; the dissertation's
/// Figure 4.20 compares the three.
/// </summary>
public enum RateIncreaseRule
{
    /// <summary>C3's cubic curve γ·(ΔT − ∛(β·R0/γ))³ + R0, by at most s_max per step (Algorithm 2).</summary>
    Cubic = 0,

    /// <summary>Additive increase: <see cref="CubicRateOptions.AdditiveStep"/> per step (AIMD).</summary>
    Additive = 1,

    /// <summary>
    /// BIC's binary search: half-way to R0 per step while below it, then probing beyond R0 by a step that doubles each
    /// time; every step between <see cref="CubicRateOptions.AdditiveStep"/> and s_max.
    /// </summary>
    BinarySearch = 2,
}
