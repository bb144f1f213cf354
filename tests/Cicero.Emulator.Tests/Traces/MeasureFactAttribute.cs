// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Traces;

/// <summary>A fact that runs only when <see cref="LargeTraces.MeasureVariable"/> is set, so CI skips the 1 GB measurement.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class MeasureFactAttribute : FactAttribute
{
    public MeasureFactAttribute()
    {
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable(LargeTraces.MeasureVariable)))
        {
            Skip = $"set {LargeTraces.MeasureVariable} to the trace size in MB to run this measurement";
        }
    }
}
