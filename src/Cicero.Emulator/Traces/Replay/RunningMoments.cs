// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Replay;

/// <summary>Mean and variance of a stream in O(1) memory (Welford's update, stable for long streams).</summary>
internal struct RunningMoments
{
    private double _m2;

    public long Count { get; private set; }

    public double Mean { get; private set; }

    /// <summary>Gets the coefficient of variation (population standard deviation over mean); 0 when the mean is 0.</summary>
    public readonly double Cv => Count < 2 || Mean <= 0 ? 0 : Math.Sqrt(_m2 / Count) / Mean;

    public void Add(double value)
    {
        Count++;
        var delta = value - Mean;
        Mean += delta / Count;
        _m2 += delta * (value - Mean);
    }
}
