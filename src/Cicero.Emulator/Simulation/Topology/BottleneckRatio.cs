// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// The per-run measure "entry admission ÷ bottleneck allowance" (<see cref="WorkflowRunResult.AdmissionToAllowance"/>),
/// from the per-second tier samples both runners take: how far what an entry admits strays from what the workflow's
/// tightest downstream tier allows it, each tier's Σσ turned into entry requests by that tier's measured calls per
/// admitted entry request.
/// </summary>
internal static class BottleneckRatio
{
    /// <summary>Computes the measure for one workflow.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="rates">The run's per-second tier samples.</param>
    /// <param name="warmUpSeconds">Samples before this are left out.</param>
    /// <returns>
    /// The largest over downstream tiers of Σ entry admissions ÷ Σ the tier's allowance, both over the seconds the tier
    /// limits the workflow; null when no downstream tier limits it or nothing was admitted then.
    /// </returns>
    public static double? Measure(WorkflowDef workflow, IReadOnlyList<TierRateSecond> rates, double warmUpSeconds)
    {
        var entryAdmitted = new Dictionary<int, double>();
        foreach (var sample in rates)
        {
            if (sample.Second >= warmUpSeconds && sample.Workflow == workflow.Name && sample.Service == workflow.Entry.Name)
            {
                entryAdmitted[sample.Second] = sample.AdmittedRate;
            }
        }

        var tiers = new Dictionary<string, (double Arrivals, double Admitted, double Sigma, double AdmittedWhileLimited)>(StringComparer.Ordinal);
        foreach (var sample in rates)
        {
            if (sample.Second < warmUpSeconds || sample.Workflow != workflow.Name || sample.Service == workflow.Entry.Name)
            {
                continue;
            }

            var admitted = entryAdmitted.GetValueOrDefault(sample.Second);
            var tier = tiers.GetValueOrDefault(sample.Service);
            tier.Arrivals += sample.ArrivalRate;
            tier.Admitted += admitted;
            if (sample.TotalRate is { } sigma)
            {
                tier.Sigma += sigma;
                tier.AdmittedWhileLimited += admitted;
            }

            tiers[sample.Service] = tier;
        }

        double? ratio = null;
        foreach (var tier in tiers.Values)
        {
            // Calls at the tier per admitted entry request, from the same samples on both sides.
            if (tier.Sigma > 0 && tier.Admitted > 0 && tier.Arrivals > 0 && tier.AdmittedWhileLimited > 0)
            {
                var allowance = RateAggregation.EntryAllowance(tier.Sigma, tier.Arrivals / tier.Admitted);
                ratio = Math.Max(ratio ?? 0, tier.AdmittedWhileLimited / allowance);
            }
        }

        return ratio;
    }
}
