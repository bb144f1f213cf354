// SPDX-License-Identifier: Apache-2.0

namespace Cicero.QuickStart;

/// <summary>What the quick start simulates.</summary>
/// <param name="Quantile">The quantile knob q.</param>
/// <param name="Capacity">Requests per second each leaf instance can serve.</param>
/// <param name="Seconds">Virtual seconds to simulate.</param>
internal sealed record QuickStartSettings(double Quantile, double Capacity, double Seconds)
{
    public string? Validate() =>
        !(Quantile >= 0 && Quantile <= 1) ? $"--quantile must be in [0, 1]; got {Quantile}."
        : !(Capacity > 0 && double.IsFinite(Capacity)) ? $"--capacity must be a positive number; got {Capacity}."
        : !(Seconds >= 2 && Seconds <= 3600) ? $"--seconds must be between 2 and 3600; got {Seconds}."
        : null;
}
