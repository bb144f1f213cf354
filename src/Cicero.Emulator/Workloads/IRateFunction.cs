// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Workloads;

/// <summary>A piecewise-constant function of time: a request rate, or a number of clients.</summary>
public interface IRateFunction
{
    /// <summary>Gets the value in force at <paramref name="seconds"/>.</summary>
    /// <param name="seconds">Virtual time, seconds.</param>
    /// <returns>The value; 0 outside the active window.</returns>
    double ValueAt(double seconds);

    /// <summary>Gets the first time after <paramref name="seconds"/> at which the value may change.</summary>
    /// <param name="seconds">Virtual time, seconds.</param>
    /// <returns>The time, or +∞ if the value never changes again.</returns>
    double NextChangeAfter(double seconds);
}
