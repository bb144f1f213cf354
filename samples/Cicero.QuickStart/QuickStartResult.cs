// SPDX-License-Identifier: Apache-2.0

namespace Cicero.QuickStart;

/// <summary>The entry point's rates before and after the halving, with what the algorithm predicts.</summary>
internal sealed record QuickStartResult(double SettledRate, double ExpectedSettled, double FinalRate, double ExpectedFinal)
{
    public bool WithinFivePercent =>
        Math.Abs(SettledRate - ExpectedSettled) <= 0.05 * ExpectedSettled && Math.Abs(FinalRate - ExpectedFinal) <= 0.05 * ExpectedFinal;
}
