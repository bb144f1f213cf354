// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary><see cref="BottleneckFairnessOptions.HeldRateRegrowth"/>: how fast a held-back workflow's σ grows again.</summary>
internal sealed class HeldRateRegrowthStage(HeldRateRegrowthOptions regrowth) : RateControlStage
{
    // A fall of σ by more than this fraction in one interval is a cut whose origin (σ′ or a resource here) is remembered.
    private const double CutFraction = 0.1;

    // Per workflow slot: whether the last cut came from downstream (σ′ at or below this process's own rate).
    private bool[] _cutByDownstream = [];

    /// <summary>
    /// Limits the growth of the σ the controller will announce, min(σ^local, σ′), for each workflow that still offers
    /// more than its last σ, while its last cut is still warranted: it came from downstream, or a resource here is still
    /// busy. Limiting σ^local is enough, since the announced σ is the smaller of the two.
    /// </summary>
    public override void Apply(RateControlInterval interval, Span<double> localRates)
    {
        var inputs = interval.Inputs;
        var workflows = inputs.Workflows;
        if (_cutByDownstream.Length < workflows.Length)
        {
            Array.Resize(ref _cutByDownstream, Math.Max(workflows.Length, 16));
        }

        var busy = false;
        foreach (var resource in inputs.Resources)
        {
            busy |= resource.Capacity > 0 && resource.TotalLoad >= regrowth.BusyFraction * resource.Capacity;
        }

        for (var j = 0; j < workflows.Length; j++)
        {
            ref readonly var workflow = ref workflows[j];
            var previous = workflow.CurrentRate;
            var announced = Math.Min(localRates[j], workflow.DownstreamRate);
            if (announced < (1 - CutFraction) * previous)
            {
                _cutByDownstream[j] = workflow.DownstreamRate <= localRates[j];
            }

            if (announced > previous
                && double.IsFinite(previous)
                && (_cutByDownstream[j] || busy)
                && workflow.ArrivalRate > previous)
            {
                localRates[j] = Math.Min(localRates[j], regrowth.Limit(previous, inputs.IntervalSeconds));
            }
        }
    }
}
