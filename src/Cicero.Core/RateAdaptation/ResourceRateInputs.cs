// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>What a rate-limit policy knows about one local resource at a control step.</summary>
/// <param name="Name">The resource's name.</param>
/// <param name="Capacity">Its capacity c, in permits.</param>
/// <param name="TotalLoad">The sum over workflows of their load l, in permits.</param>
public readonly record struct ResourceRateInputs(string Name, int Capacity, double TotalLoad)
{
    /// <summary>Gets the spare capacity fraction φ = (c − Σl) / c; negative when overloaded.</summary>
    public double SpareFraction => (Capacity - TotalLoad) / Capacity;
}
