// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <summary>Reads each local resource's measurements of the closed interval into the policy's inputs.</summary>
internal static class ResourceReadings
{
    /// <summary>Sets <paramref name="inputs"/>' resource rows from the resources, for the first <paramref name="count"/> workflows.</summary>
    public static void Read(LocalRateInputs inputs, IReadOnlyList<ResourceSemaphore> resources, WorkflowRegistry registry, int count)
    {
        for (var r = 0; r < resources.Count; r++)
        {
            inputs.SetResource(r, new ResourceRateInputs(resources[r].Name, resources[r].Capacity, resources[r].TotalLoad)
            {
                TotalDemand = resources[r].TotalDemand,
                StandingQueueIntervals = resources[r].StandingQueueIntervals,
                MeanServiceTime = MeanServiceTime(resources[r], registry, count),
            });
        }
    }

    /// <summary>
    /// The resource's mean service time weighted by arrivals: Σ demand ÷ Σ (demand ÷ service time), since each
    /// workflow's demand is its sub-task arrival rate times its own mean service time.
    /// </summary>
    private static double MeanServiceTime(ResourceSemaphore resource, WorkflowRegistry registry, int count)
    {
        var demand = 0.0;
        var arrivals = 0.0;
        var unweighted = 0.0;
        for (var i = 0; i < count; i++)
        {
            var slot = registry[i];
            if (resource.GetServiceTime(slot) is not { } time || time <= TimeSpan.Zero)
            {
                continue;
            }

            var seconds = time.TotalSeconds;
            var workflowDemand = resource.GetDemand(slot);
            demand += workflowDemand;
            arrivals += workflowDemand / seconds;
            unweighted = Math.Max(unweighted, seconds);
        }

        // With no arrivals measured, the longest known service time errs towards the longer (more patient) window.
        return arrivals > 0 ? demand / arrivals : unweighted;
    }
}
