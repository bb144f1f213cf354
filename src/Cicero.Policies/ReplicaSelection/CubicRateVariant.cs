// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.ReplicaSelection;

/// <summary>When a <see cref="CubicRateController"/> cuts its sending rate and how it measures the receive rate.</summary>
public enum CubicRateVariant
{
    /// <summary>
    /// Cicero's production rule (the default): the rate is cut only when the limit binds and the replica's responses
    /// slow down (a response time above <see cref="CubicRateOptions.HealthyResponseFactor"/> times the fastest of the
    /// last <see cref="CubicRateOptions.MinResponseTimeWindow"/>, plus <see cref="CubicRateOptions.HealthyResponseSlack"/>),
    /// and a limit that binds while the replica answers as fast as ever grows: doubling per window until the first cut
    /// (a slow start), along C3's cubic after it. A client that only sends faster than its limit allows, to a replica
    /// that keeps up, is never held back for long (the other two variants compare srate with a smoothed rrate that
    /// cannot exceed what the limit lets through, and so hold such a client near its initial rate).
    /// </summary>
    DelayGuarded = 2,

    /// <summary>
    /// The earlier production rule: only a limit that bound in the last two windows is cut, and empty windows decay the
    /// receive rate only while the client waits on the replica. A client that sends less than its limit allows keeps its
    /// limit (the published rule cuts it to the floor, which stalled an idle-then-busy client's calls).
    /// </summary>
    BindingLimit = 0,

    /// <summary>
    /// C3 Algorithm 2 as written: the rate is cut whenever srate exceeds rrate outside the hysteresis period, and every
    /// empty window decays rrate. What the reproduction of the C3 paper and the dissertation runs.
    /// </summary>
    Published = 1,
}
