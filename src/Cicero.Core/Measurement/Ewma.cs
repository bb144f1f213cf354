// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Measurement;

/// <summary>An exponentially weighted moving average: value ← w·sample + (1 − w)·value; the first sample sets it.</summary>
/// <remarks>A mutable struct kept in a field and updated in place; not thread-safe on its own.</remarks>
public struct Ewma
{
    private double _value;

    /// <summary>Creates an average that gives each new sample weight <paramref name="weight"/>.</summary>
    /// <param name="weight">The weight of a new sample, in (0, 1].</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="weight"/> is outside (0, 1].</exception>
    public Ewma(double weight)
    {
        if (!(weight > 0 && weight <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(weight), weight, "The weight of a new sample must be in (0, 1].");
        }

        Weight = weight;
    }

    /// <summary>Gets the weight of a new sample.</summary>
    public double Weight { get; }

    /// <summary>Gets a value indicating whether a sample has been seen.</summary>
    public bool HasValue { get; private set; }

    /// <summary>Gets the average, or 0 before the first sample.</summary>
    public readonly double Value => _value;

    /// <summary>Folds in a sample.</summary>
    /// <param name="sample">The sample; a NaN sample is ignored.</param>
    public void Update(double sample)
    {
        if (double.IsNaN(sample))
        {
            return;
        }

        if (!HasValue)
        {
            _value = sample;
            HasValue = true;
            return;
        }

        _value = (Weight * sample) + ((1 - Weight) * _value);
    }

    /// <summary>Forgets every sample.</summary>
    public void Reset()
    {
        _value = 0;
        HasValue = false;
    }
}
