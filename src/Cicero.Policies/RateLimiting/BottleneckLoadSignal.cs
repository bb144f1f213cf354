// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>Which measure of a workflow's load on a resource the <see cref="BottleneckFairnessPolicy"/> compares with the capacity.</summary>
public enum BottleneckLoadSignal
{
    /// <summary>
    /// Offered load: sub-task arrivals per second times their mean service time (Little's law). It exceeds the
    /// capacity only when work arrives faster than the resource can serve it, so a busy but healthy resource is not
    /// taken for a bottleneck.
    /// </summary>
    OfferedDemand = 0,

    /// <summary>
    /// Permits held plus sub-tasks waiting, averaged over the interval, as the dissertation measures l. On a resource
    /// with few permits this exceeds the capacity whenever arrivals bunch, even at 60-80% utilisation.
    /// </summary>
    HeldAndWaiting = 1,
}
