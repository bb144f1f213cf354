// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.StorageTopology;

/// <summary>What <c>check</c>'s tuning options change in every rate-controlled configuration of a generated scenario.</summary>
/// <param name="HeldRateRegrowth">Turn the policy's held-rate regrowth limit on or off; the preset's when <see langword="null"/>.</param>
/// <param name="DemandSmoothingSeconds">The policy's demand smoothing time; the preset's when <see langword="null"/>.</param>
/// <param name="OverloadConfidence">The policy's overload confidence; the preset's when <see langword="null"/>.</param>
/// <param name="OverloadHold">The utilization of the policy's overload hold; the preset's (off) when <see langword="null"/>.</param>
/// <param name="GoodputLimit">Turn the policy's goodput limit on or off; the preset's (on) when <see langword="null"/>.</param>
internal sealed record RateControlTuning(bool? HeldRateRegrowth, double? DemandSmoothingSeconds, double? OverloadConfidence, double? OverloadHold, bool? GoodputLimit = null)
{
    public void Apply(ScenarioSpec scenario)
    {
        foreach (var configuration in scenario.Configurations!.Where(c => c.RateControl))
        {
            configuration.RateHeldRegrowth = HeldRateRegrowth ?? configuration.RateHeldRegrowth;
            configuration.RateOverloadConfidence = OverloadConfidence ?? configuration.RateOverloadConfidence;
            configuration.RateOverloadHold = OverloadHold ?? configuration.RateOverloadHold;
            configuration.RateGoodputLimit = GoodputLimit ?? configuration.RateGoodputLimit;
            if (DemandSmoothingSeconds is { } seconds)
            {
                configuration.RateDemandSmoothingMs = seconds * 1000;
            }
        }
    }
}
