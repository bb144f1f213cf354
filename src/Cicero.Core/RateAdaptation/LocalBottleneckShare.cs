// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>
/// Where an interior instance holds a workflow to its local fair share (docs/decisions/0022): only at a local bottleneck
/// now, and only above the share the local policy computed there.
/// </summary>
internal static class LocalBottleneckShare
{
    /// <summary>
    /// Whether interior hops of workflow <paramref name="workflow"/> are held to σ here: a local resource it loads has a
    /// standing queue, its local rate σ^local is below its arrival rate here, and σ^local, not the downstream σ′, binds
    /// (so σ = σ^local, its share here); otherwise they are counted.
    /// </summary>
    /// <param name="inputs">The interval's inputs, as the local policy saw them.</param>
    /// <param name="workflow">The workflow's index into <see cref="LocalRateInputs.Workflows"/>.</param>
    /// <param name="local">The local policy's rate σ^local for it.</param>
    /// <returns>Whether the workflow's interior hops are held to σ.</returns>
    public static bool Holds(LocalRateInputs inputs, int workflow, double local)
    {
        var rates = inputs.Workflows[workflow];
        if (!(local < rates.ArrivalRate && local < rates.DownstreamRate))
        {
            // Within its share here, or held by what its callees allow: that limit belongs to the entry (σ′).
            return false;
        }

        var resources = inputs.Resources;
        for (var k = 0; k < resources.Length; k++)
        {
            if (resources[k].Capacity > 0 && resources[k].StandingQueueIntervals > 0
                && (inputs.GetLoad(workflow, k) > 0 || inputs.GetDemand(workflow, k) > 0))
            {
                return true;
            }
        }

        return false;
    }
}
