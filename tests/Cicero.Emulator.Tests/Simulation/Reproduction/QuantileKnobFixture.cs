// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Simulation.Reproduction;

/// <summary>The 5.3.5 quantile-knob scenario at 30 s (5 s warm-up) instead of 60 s.</summary>
public sealed class QuantileKnobFixture() : ReproductionFixture("quantile-knob", scenario =>
{
    scenario.DurationSeconds = 30;
    scenario.WarmUpSeconds = 5;
})
{
    /// <summary>
    /// Oscillation of the scan workflow's Σσ at the FEs: the coefficient of variation (standard deviation over mean) of
    /// the per-second samples after the warm-up. Normalised, because the three settings hold σ at levels orders of
    /// magnitude apart, and a raw standard deviation would favour whichever is lowest.
    /// </summary>
    public double Oscillation(string configuration, string service = "fe")
    {
        var samples = Results[configuration].Rates
            .Where(r => r.Workflow == "S" && r.Service == service && r.Second > Scenario.WarmUpSeconds && r.TotalRate is not null)
            .Select(r => r.TotalRate!.Value)
            .ToArray();
        var mean = samples.Average();
        return Math.Sqrt(samples.Average(x => (x - mean) * (x - mean))) / mean;
    }
}
